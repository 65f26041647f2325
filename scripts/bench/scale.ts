/**
 * SuperCluster scale (issue 21): for Atlas 950 clusters of 16,384, 131,072 and 524,288 NPUs (2, 16 and 64 SuperPoDs
 * of 128 racks × 64 NPUs; SCALE_NPUS="16384,131072" picks others, multiples of 8,192):
 * - generate: `rankscope generate --version 2.0 --super-pods N --racks 128 --output DIR` (one table per SuperPoD);
 * - import: `rankscope cluster add SLUG --from DIR`, its wall time, the CPU of the CLI (user + sys, GNU time) and of
 *   PostgreSQL for the database (./pg-cpu.ts), peak RSS, and the rows it wrote;
 * - faults spread over the cluster and a job on min(100,000, NPUs) ranks, created as the API creates them
 *   (./scale-usage.ts), the job's body and time;
 * - server side, in a fresh process per cluster (./scale-probe.ts): the topology index cold, the search cold and
 *   warm, every view of ./scale-views.ts (the job page's loaders too) cold and warm, and the process's RSS;
 * - in Chromium (./browser-topology.ts, the app built into .next-e2e under the test runners' lock and served on the
 *   run's database): the cluster, super pod or row, rack and job pages, navigation → drawn and the longest main-thread task
 *   after hydration and while zooming;
 * - the end of the cluster (./scale-delete.ts): its inventory replaced by itself, then the cluster deleted with its
 *   job and faults, each with PostgreSQL's CPU and the slowest console read meanwhile (so each size is gone before
 *   the next is imported).
 * Besides the Atlas 950 SuperCluster, two clusters of as many NPUs exercise the views drawn by rack (a "2.0" server is a
 * rack already, so it has none): Atlas A3 super pods of 128 servers (1.2 tables; a pod of more than 64 servers is
 * drawn by rack, 16 racks of 8 servers) and plain Atlas A2 servers (1.0 tables; more than 1,024 servers are drawn by
 * rack, more than 128 racks by row of 128 racks: 2,048 servers at 16k NPUs are 256 racks in 2 rows). Each gets the same faults, job, probe and end; its rows are prefixed with its name.
 * SCALE_KINDS="atlas950,a3-racks,plain" picks among them, SCALE_END=0 skips the replace and delete (each cluster then
 * stays until the database is dropped).
 * Then one table with each figure per size and its growth from the smallest to the largest. The database is a fresh
 * one on TEST_DATABASE_URL's server when that is set, else a throwaway embedded PostgreSQL. Generated tables and the
 * embedded server's data go under /var/tmp (SCALE_DIR), not the small /tmp: 524,288 NPUs are 870 MB of tables.
 * Each figure carries the load average it was taken at; it never asserts timings.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "@/db/embedded";
import { connectDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { createUser } from "@/db/queries/users";
import { adminQuery, withDatabase } from "@/test/urls";
import { lockCheckout } from "../e2e-lock";
import { descendantsUsage } from "../proc-stats";
import { benchUser, measureTopologyPages, signIn, startApp, type BrowserCase } from "./browser-topology";
import type { BenchSection } from "./index";
import { SCALE_JOB_NAME } from "./scale-views";
import { median } from "./percentiles";
import { watchDatabaseCpu } from "./pg-cpu";

const RACKS = 128;
/** Issue 21: "the job page for a job on 100,000 ranks". */
const JOB_RANKS = 100_000;
/** Fault events spread over every super pod, for the timeline and statistics. */
const FAULTS = 5_000;
const NPUS_PER_POD = RACKS * 64;
const sizes = (process.env.SCALE_NPUS ?? "16384,131072,524288").split(",").map(Number);

/**
 * The import runs with its main heap capped: V8 otherwise lets garbage pile up to whatever it may use (a 131k import
 * peaked at 678 MB uncapped, 391 MB with 160 MB of old space, in the same time). With a cap its peak RSS is what it
 * needs, and that it stays the same from 16k to 524k NPUs is the "bounded memory" of the streamed import.
 */
const IMPORT_HEAP_MB = 192;

interface ScaleKind {
  name: string;
  /** The `rankscope generate` arguments for a cluster of `npus` NPUs, written into `directory`. */
  generate(npus: number, directory: string): string[];
  /** What `cluster add --from` reads: the directory, or the one table in it. */
  source(directory: string): string;
  /**
   * The import's old space (MB) for `npus` NPUs. A SuperCluster is streamed one table at a time in IMPORT_HEAP_MB; a
   * 1.x cluster is one table, read as it streams too (lib/topology/import-stream.ts), but its text and the validator's
   * view of every die stay for the check (0.6 GB of heap at 524,288 A3 NPUs), and the fabric of the whole cluster is
   * derived at once (131,072 A3 NPUs ran out in 512 MB; 524,288 peaked at 1.9 GB RSS in 2,048).
   */
  importHeapMb(npus: number): number;
}
const A3_SERVERS_PER_POD = 128;
/** A 1.x table (read as it streams, its fabric derived whole). */
const oneTableHeapMb = () => 2048;
const kinds: ScaleKind[] = [
  {
    name: "atlas950",
    generate: (npus, directory) => ["--version", "2.0", "--super-pods", String(npus / NPUS_PER_POD), "--racks", String(RACKS), "--output", directory],
    source: (directory) => directory,
    importHeapMb: () => IMPORT_HEAP_MB,
  },
  {
    // 8 NPUs × 2 dies a server, 128 servers a pod: 1,024 NPUs a pod.
    name: "a3-racks",
    generate: (npus, directory) => ["--version", "1.2", "--super-pods", String(npus / (A3_SERVERS_PER_POD * 8)), "--servers", String(A3_SERVERS_PER_POD), "--npus", "8", "--dies", "2", "--output", path.join(directory, "table.json")],
    source: (directory) => path.join(directory, "table.json"),
    importHeapMb: oneTableHeapMb,
  },
  {
    name: "plain",
    generate: (npus, directory) => ["--version", "1.0", "--servers", String(npus / 8), "--npus", "8", "--dies", "1", "--output", path.join(directory, "table.json")],
    source: (directory) => path.join(directory, "table.json"),
    importHeapMb: oneTableHeapMb,
  },
];
const kindNames = (process.env.SCALE_KINDS ?? kinds.map((kind) => kind.name).join(",")).split(",");
const runEnd = process.env.SCALE_END !== "0";
/** SCALE_BROWSER=0 skips Chromium; SCALE_BROWSER_RUNS page loads per view (the first one finds the server's index cold). */
const runBrowser = process.env.SCALE_BROWSER !== "0";
const browserRuns = Number(process.env.SCALE_BROWSER_RUNS ?? 3);

/** The app served on the run's database, with the bench user, started for the first cluster the browser opens. */
async function appOn(url: string): Promise<{ base: string; pid: number; cookie: string; stop: () => void }> {
  const handle = connectDatabase(url, { max: 1 });
  try {
    await createUser(handle.db, { ...benchUser, role: "viewer" }, systemActor);
  } finally {
    await handle.pool.end();
  }
  const app = await startApp(url);
  return { ...app, cookie: await signIn(app.base) };
}

/**
 * The cluster's pages to open in Chromium: the cluster view, its middle super pod or row of racks, a rack (of that
 * pod or row) when it is drawn by rack, the middle server expanded 2 hops, and the job page of ./scale-usage.ts's job (the job over its scope's view,
 * with `?job=` when that view is aggregated). Ids come from the API's own answers.
 */
export async function browserCases(url: string, app: { base: string; cookie: string }, slug: string): Promise<BrowserCase[]> {
  const view = async (query: string) => {
    const response = await fetch(`${app.base}/api/v1/clusters/${slug}/topology?${query}`, { headers: { cookie: app.cookie } });
    if (!response.ok) throw new Error(`topology?${query} answered ${response.status}`);
    return ((await response.json()) as { nodes: { id: string; kind: string }[] }).nodes;
  };
  const middleOf = (nodes: { id: string; kind: string }[], kind: string) => {
    const list = nodes.filter((node) => node.kind === kind);
    return list[Math.floor(list.length / 2)]?.id;
  };
  const page = (query: string) => `/topology?cluster=${slug}${query}`;
  const cases: BrowserCase[] = [{ label: "cluster", path: page("") }];
  const cluster = await view("level=cluster");
  const pod = middleOf(cluster, "superpod");
  const row = middleOf(cluster, "row");
  let rack = middleOf(cluster, "rack");
  if (row) {
    cases.push({ label: "row", path: page(`&level=row&id=${encodeURIComponent(row)}`) });
    rack ??= middleOf(await view(`level=row&id=${encodeURIComponent(row)}`), "rack");
  }
  if (pod) {
    cases.push({ label: "superpod", path: page(`&level=superpod&id=${encodeURIComponent(pod)}`) });
    rack ??= middleOf(await view(`level=superpod&id=${encodeURIComponent(pod)}`), "rack");
  }
  if (rack) cases.push({ label: "rack", path: page(`&level=rack&id=${encodeURIComponent(rack)}`) });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The middle server's neighbourhood, 2 hops along every kind (lib/topology/neighbourhood.ts).
    const { rows: servers } = await client.query<{ server_id: string }>(
      `select s.server_id from servers s join clusters c on c.id = s.cluster_id where c.slug = $1
       order by s.position offset (select count(*) / 2 from servers s join clusters c on c.id = s.cluster_id where c.slug = $1) limit 1`,
      [slug],
    );
    if (servers[0]) cases.push({ label: "server 2 hops", path: page(`&level=server&id=${encodeURIComponent(servers[0].server_id)}&hops=2`) });
    const { rows } = await client.query<{ id: number }>("select j.id from jobs j join clusters c on c.id = j.cluster_id where c.slug = $1 and j.name = $2", [slug, SCALE_JOB_NAME]);
    if (rows[0]) cases.push({ label: "job page", path: `/jobs/${rows[0].id}` });
  } finally {
    await client.end();
  }
  return cases;
}
/**
 * Search over HTTP on the served app (`GET …/topology/search`, what the page's search box asks), each query a new one
 * so that no answer comes from the route's body cache: ranks spread over the cluster, then server ids. The first
 * request of the cluster builds the search index (lib/topology/search.ts).
 */
async function timeSearch(app: { base: string; cookie: string }, slug: string, npus: number): Promise<{ first: number; median: number; max: number }> {
  const queries = [...Array.from({ length: 10 }, (_, i) => String(Math.floor(((i * 7 + 3) % 10) * (npus / 10) + i))), "rack1", "node1"];
  const times: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    const response = await fetch(`${app.base}/api/v1/clusters/${slug}/topology/search?q=${encodeURIComponent(q)}`, { headers: { cookie: app.cookie } });
    if (!response.ok) throw new Error(`search ${q} answered ${response.status}`);
    await response.text();
    times.push(performance.now() - started);
  }
  return { first: times[0]!, median: median(times.slice(1)), max: Math.max(...times.slice(1)) };
}
const load = () => os.loadavg()[0]!.toFixed(1);
const root = path.resolve(import.meta.dirname, "../..");
const scratch = process.env.SCALE_DIR ?? "/var/tmp";

/** A fresh directory under the scratch directory. */
async function scratchDirectory(prefix: string): Promise<string> {
  await mkdir(scratch, { recursive: true });
  return mkdtemp(path.join(scratch, prefix));
}

/** Runs a command to its end: its stdout, and with GNU time (when installed) its peak RSS and CPU seconds. */
function run(command: string[], env: Record<string, string> = {}): Promise<{ ms: number; stdout: string; peakMb: number | null; cpuS: number | null }> {
  const gnuTime = existsSync("/usr/bin/time");
  const argv = gnuTime ? ["/usr/bin/time", "-f", "maxrss-kb %M cpu-s %U %S", ...command] : command;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => {
      const ms = performance.now() - started;
      const rss = /maxrss-kb (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0) reject(new Error(`${command.join(" ")} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ ms, stdout, peakMb: rss ? Math.round(Number(rss[1]) / 1024) : null, cpuS: rss ? Number(rss[2]) + Number(rss[3]) : null });
    });
  });
}

const tsx = (script: string, ...args: string[]) => [process.execPath, "--import", "tsx", path.join(root, script), ...args];

/** A database for the run: fresh on TEST_DATABASE_URL's server, or a throwaway embedded server. */
async function scaleDatabase(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `rankscope_scale_${randomBytes(4).toString("hex")}`;
    await adminQuery(server, `create database ${name}`);
    return { url: withDatabase(server, name), cleanup: () => adminQuery(server, `drop database if exists ${name} with (force)`) };
  }
  const dataDir = await scratchDirectory("rankscope-scale-pg-");
  const embedded = await startEmbeddedPostgres({ dataDir });
  return {
    url: embedded.url(),
    cleanup: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function storedRows(url: string, slug: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `select (select count(*) from servers s where s.cluster_id = c.id) as servers,
         (select count(*) from devices d where d.cluster_id = c.id) as dies,
         (select count(*) from device_net_addresses a where a.cluster_id = c.id) as addresses,
         (select count(*) from links l where l.cluster_id = c.id) as links,
         (select count(*) from fabric_links f where f.cluster_id = c.id) as fabric_links
       from clusters c where c.slug = $1`,
      [slug],
    );
    return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
  } finally {
    await client.end();
  }
}

function printTable(columns: string[], rows: Map<string, (number | null)[]>): void {
  const format = (value: number | null) => (value === null ? "—" : value >= 100 ? Math.round(value).toLocaleString("en") : value.toFixed(1));
  const header = ["figure", ...columns, "growth"];
  const lines = [...rows].map(([name, values]) => {
    const first = values[0];
    const last = values[values.length - 1];
    const growth = first && last !== null && last !== undefined && values.length > 1 ? `×${(last / first).toFixed(1)}` : "";
    return [name, ...values.map(format), growth];
  });
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...lines.map((line) => line[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const cells of lines) console.log(line(cells));
}

export const scaleBench: BenchSection = {
  name: "scale",
  description: "SuperCluster scale: generate, import, index, search, views (API and Chromium), replace and delete at 16k, 131k and 524k NPUs",
  async run() {
    const bad = sizes.find((npus) => !Number.isInteger(npus) || npus < NPUS_PER_POD || npus % NPUS_PER_POD !== 0);
    if (bad !== undefined) throw new Error(`SCALE_NPUS: ${bad} is not a multiple of ${NPUS_PER_POD} NPUs (one SuperPoD)`);
    const database = await scaleDatabase();
    // The build (.next-e2e) is the test runners' too: held under their lock while the app runs.
    const release = runBrowser ? await lockCheckout() : () => undefined;
    const served: { app?: Awaited<ReturnType<typeof appOn>> } = {};
    /** What ran in the worst run of each page, printed after the table. */
    const worst: string[] = [];
    const rows = new Map<string, (number | null)[]>();
    const put = (name: string, column: number, value: number | null) => {
      if (!rows.has(name)) rows.set(name, sizes.map(() => null));
      rows.get(name)![column] = value;
    };
    /** One cluster of `kind` with `npus` NPUs: generate, import, faults and job, probe, and (SCALE_END) its end. */
    const runKind = async (kind: ScaleKind, column: number, npus: number) => {
      const slug = `scale-${kind.name}-${npus}`;
      // The Atlas 950 rows keep their names; the others say which cluster they are of.
      const named = (name: string) => (kind.name === "atlas950" ? name : `${kind.name}: ${name}`);
      const putOf = (name: string, value: number | null) => put(named(name), column, value);
      const say = (text: string) => console.log(`${npus} NPUs, ${kind.name}: ${text} (load ${load()})`);
      const directory = await scratchDirectory(`rankscope-scale-${kind.name}-${npus}-`);
      try {
        putOf("load average (1 min) at start", Number(load()));
        const generated = await run(tsx("scripts/cli/index.ts", "generate", ...kind.generate(npus, directory)));
        putOf("generate (s)", generated.ms / 1000);
        say(`generated in ${(generated.ms / 1000).toFixed(1)} s`);
        const loadBefore = load();
        const pgCpu = await watchDatabaseCpu(database.url);
        const imported = await run([process.execPath, `--max-old-space-size=${kind.importHeapMb(npus)}`, ...tsx("scripts/cli/index.ts", "cluster", "add", slug, "--from", kind.source(directory)).slice(1)], {
          DATABASE_URL: database.url,
        });
        const pgCpuS = await pgCpu.stop();
        putOf("import: wall (s)", imported.ms / 1000);
        putOf("import: CPU of the CLI, user + sys (s)", imported.cpuS);
        putOf("import: CPU of PostgreSQL for the database (s)", pgCpuS);
        putOf("import: peak RSS (MB)", imported.peakMb);
        putOf("import: old space allowed (MB)", kind.importHeapMb(npus));
        putOf("import: load average (1 min) at its end", Number(load()));
        say(
          `${imported.stdout.trim()} in ${(imported.ms / 1000).toFixed(1)} s, CPU ${imported.cpuS?.toFixed(1)} s CLI + ${pgCpuS?.toFixed(1)} s PostgreSQL, peak RSS ${imported.peakMb} MB (load before ${loadBefore})`,
        );
        for (const [name, count] of Object.entries(await storedRows(database.url, slug))) putOf(`stored ${name}`, count);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
      // Faults over the cluster, and a job on min(100,000, the cluster's) dies, created as the API creates them.
      const jobRanks = Math.min(JOB_RANKS, npus);
      const job = await run(tsx("scripts/bench/scale-usage.ts", database.url, slug, String(jobRanks), String(FAULTS)));
      for (const [name, value] of Object.entries(JSON.parse(job.stdout) as Record<string, number>)) putOf(name, value);
      say(`job on ${jobRanks} ranks created`);
      const probe = await run(tsx("scripts/bench/scale-probe.ts", database.url, slug));
      for (const [name, value] of Object.entries(JSON.parse(probe.stdout) as Record<string, number>)) putOf(name, value);
      say("probed");
      if (runBrowser) {
        const app = (served.app ??= await appOn(database.url));
        const search = await timeSearch(app, slug, npus);
        putOf("search over HTTP: first, cold (ms)", search.first);
        putOf("search over HTTP: warm median (ms)", search.median);
        putOf("search over HTTP: warm max (ms)", search.max);
        const figures = await measureTopologyPages(app.base, await browserCases(database.url, app, slug), browserRuns);
        for (const figure of figures) {
          putOf(`Chromium ${figure.label}: navigation → drawn, median (ms)`, figure.drawn);
          putOf(`Chromium ${figure.label}: longest task after hydration, median (ms)`, figure.own);
          putOf(`Chromium ${figure.label}: longest task after hydration, max (ms)`, figure.ownMax);
          putOf(`Chromium ${figure.label}: longest task while zooming, max (ms)`, figure.zoomMax);
          worst.push(`- ${npus} NPUs, ${kind.name}, ${figure.label}: ${figure.worst}`);
        }
        // One app server serves every cluster of the run: its memory holds each one browsed so far (their indexes).
        putOf("app server RSS after the pages, every cluster so far (MB)", Math.round((await descendantsUsage(app.pid)).rssBytes / 2 ** 20));
        say(`opened in Chromium (${browserRuns} runs a page)`);
      }
      if (runEnd) {
        const ended = JSON.parse((await run(tsx("scripts/bench/scale-delete.ts", database.url, slug))).stdout) as Record<string, number>;
        for (const [name, value] of Object.entries(ended)) putOf(name, value);
        say(`replaced in ${ended["replace: wall (s)"]?.toFixed(1)} s, deleted in ${ended["delete: wall (s)"]?.toFixed(1)} s`);
      }
      putOf("load average (1 min) at end", Number(load()));
    };
    try {
      for (const [column, npus] of sizes.entries()) {
        for (const kind of kinds.filter((k) => kindNames.includes(k.name))) await runKind(kind, column, npus);
        // The table so far after each size: a long run that fails later still leaves its figures.
        if (column < sizes.length - 1) printTable(sizes.map((n) => `${n.toLocaleString("en")} NPUs`), rows);
      }
      console.log("");
      printTable(sizes.map((npus) => `${npus.toLocaleString("en")} NPUs`), rows);
      if (worst.length > 0) {
        console.log("\nLongest tasks of each page's worst run (start after navigation; what ran in them, from Long Animation Frames):");
        for (const line of worst) console.log(line);
      }
    } finally {
      served.app?.stop();
      release();
      await database.cleanup();
    }
  },
};
