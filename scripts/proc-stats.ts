/** CPU and memory of processes from /proc (Linux), for the benches; elsewhere the callers leave the figures out. */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export const ticksPerSecond = 100;

/**
 * The fields of a `stat` file's text after the command name, which may hold spaces: the first is field 3 (state), so
 * field n is at n - 3.
 */
const statFields = (stat: string): string[] => stat.slice(stat.lastIndexOf(")") + 2).split(" ");

/** The parent's pid from a `stat` file's text (field 4). */
export const parentPid = (stat: string): number => Number(statFields(stat)[1]);

/** User + system ticks from a `stat` file's text (a process's, or a thread's under /proc/<pid>/task). */
function statTicks(stat: string, withReapedChildren: boolean): number {
  // utime is field 14, stime 15, cutime 16, cstime 17.
  const fields = statFields(stat);
  const own = Number(fields[11]) + Number(fields[12]);
  return withReapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
}

/** A memory field of a `status` file's text (/proc/<pid>/status), in kB; 0 when the kernel does not report it. */
export function statusKb(status: string, field: "VmRSS" | "RssAnon" | "VmSwap"): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
}

export async function processTicks(pid: number, withReapedChildren = false): Promise<number> {
  return statTicks(await readFile(`/proc/${pid}/stat`, "utf8"), withReapedChildren);
}

/** CPU seconds of each thread of `pid`, by thread id, with the thread's name; threads that end meanwhile are left out. */
export async function threadSeconds(pid: number): Promise<{ tid: string; name: string; seconds: number }[]> {
  const threads: { tid: string; name: string; seconds: number }[] = [];
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const [stat, name] = await Promise.all([readFile(`/proc/${pid}/task/${tid}/stat`, "utf8"), readFile(`/proc/${pid}/task/${tid}/comm`, "utf8")]).catch(() => []);
    if (stat !== undefined && name !== undefined) threads.push({ tid, name: name.trim(), seconds: statTicks(stat, false) / ticksPerSecond });
  }
  return threads;
}

/** CPU ms of a PostgreSQL server: the postmaster, its live backends and workers, and those that have exited. */
export async function postgresCpuMs(dataDir: string): Promise<number> {
  const postmaster = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
  let ticks = await processTicks(postmaster, true);
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (stat && parentPid(stat) === postmaster) ticks += await processTicks(Number(entry)).catch(() => 0);
  }
  return (ticks * 1000) / ticksPerSecond;
}

/** Every process below `pid` (children, their children, …). */
export async function descendants(pid: number): Promise<number[]> {
  const listed = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  const direct = listed.split(" ").filter(Boolean).map(Number);
  return [...direct, ...(await Promise.all(direct.map(descendants))).flat()];
}

/** Resident memory (bytes) and CPU ms used so far of the processes below `pid`, not `pid` itself. */
export async function descendantsUsage(pid: number): Promise<{ rssBytes: number; cpuMs: number }> {
  let rssBytes = 0;
  let ticks = 0;
  for (const child of await descendants(pid)) {
    const status = await readFile(`/proc/${child}/status`, "utf8").catch(() => "");
    rssBytes += statusKb(status, "VmRSS") * 1024;
    ticks += await processTicks(child).catch(() => 0);
  }
  return { rssBytes, cpuMs: (ticks * 1000) / ticksPerSecond };
}

/**
 * The TCP connections a local server port has, by the client's port, with their state ("01" established; "04"
 * FIN_WAIT1: closed by the server with data the client has not taken yet). How a bench sees the server drop a client
 * that does not read: that client cannot tell, its unread data stands before the FIN.
 */
export async function serverConnections(port: number): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(file, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const [, local, remote, state] = line.trim().split(/\s+/);
      if (!local || !remote || !state) continue;
      if (parseInt(local.split(":")[1]!, 16) === port) out.set(parseInt(remote.split(":")[1]!, 16), state);
    }
  }
  return out;
}

/**
 * CPU seconds per thread of the Chromium renderers below `root` (this process's own browser only: other sessions run
 * theirs on the machine): worker threads apart (by id), the others summed by name, threads that ended as one;
 * `browser`: every other Chromium process (the browser's, the GPU's, the network's), summed.
 */
export async function chromiumThreads(root: number): Promise<Map<string, number>> {
  const threads = new Map<string, number>();
  for (const pid of await descendants(root)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (!/chrom/i.test(cmdline)) continue;
    if (!cmdline.includes("--type=renderer")) {
      threads.set("browser", (threads.get("browser") ?? 0) + (await processTicks(pid).catch(() => 0)) / ticksPerSecond);
      continue;
    }
    const [own, live] = await Promise.all([processTicks(pid).catch(() => 0), threadSeconds(pid)]);
    for (const { tid, name, seconds } of live) {
      const key = name.startsWith("DedicatedWorker") ? `worker ${tid}` : name;
      threads.set(key, (threads.get(key) ?? 0) + seconds);
    }
    // A process's time counts its ended threads too (a worker terminated after the open: the text reader).
    const ended = own / ticksPerSecond - live.reduce((sum, thread) => sum + thread.seconds, 0);
    threads.set("ended threads", (threads.get("ended threads") ?? 0) + Math.max(0, ended));
  }
  return threads;
}

/** The CPU seconds of each of chromiumThreads' entries since `before` (0.1 s or more), and their sum over all. */
export async function chromiumCpuSince(root: number, before: Map<string, number>): Promise<string> {
  const spent = [...(await chromiumThreads(root))].map(([name, seconds]) => [name, seconds - (before.get(name) ?? 0)] as const);
  const total = spent.reduce((sum, [, seconds]) => sum + Math.max(0, seconds), 0);
  const listed = spent.filter(([, seconds]) => seconds >= 0.1).map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`);
  return `all ${total.toFixed(1)}: ${listed.join(", ")}`;
}
