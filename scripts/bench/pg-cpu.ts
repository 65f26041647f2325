/**
 * CPU seconds PostgreSQL spends for one database while something runs: the server is shared (other engineers'
 * databases on it), so the whole server's CPU would not say what one import cost. Every process serving the
 * database (its backends and their parallel workers, from pg_stat_activity) is read from /proc/PID/stat while it
 * lives, a few times a second, and its last reading counts. Works when PostgreSQL runs on this machine and its
 * /proc entries are readable (root, or the same user); otherwise the figure is null.
 */
import { readFile } from "node:fs/promises";
import pg from "pg";

const ticksPerSecond = 100; // USER_HZ on Linux

async function cpuTicks(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!stat) return null;
  // Fields after the command name (which may hold spaces) begin after the last ")": utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

export interface PgCpuWatch {
  /** Stops watching; PostgreSQL's CPU seconds for the database since the start, or null when /proc could not be read. */
  stop: () => Promise<number | null>;
}

export async function watchDatabaseCpu(url: string, intervalMs = 200): Promise<PgCpuWatch> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows: own } = await client.query<{ pid: number; database: string }>("select pg_backend_pid() as pid, current_database() as database");
  const watcher = own[0]!.pid;
  const start = new Map<number, number>();
  const last = new Map<number, number>();
  let readable = false;
  let initial = true;
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> $2", [own[0]!.database, watcher]);
    await Promise.all(
      rows.map(async ({ pid }) => {
        const ticks = await cpuTicks(pid);
        if (ticks === null) return;
        readable = true;
        // Processes there before the watch count from its start; ones that appear later count whole.
        if (!start.has(pid)) start.set(pid, initial ? ticks : 0);
        last.set(pid, ticks);
      }),
    );
  };
  await sample();
  initial = false;
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
      if (running) await sample().catch(() => {});
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      await client.end();
      if (!readable) return null;
      let ticks = 0;
      for (const [pid, value] of last) ticks += value - (start.get(pid) ?? 0);
      return ticks / ticksPerSecond;
    },
  };
}
