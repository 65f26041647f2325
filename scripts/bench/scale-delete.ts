/**
 * The end of a cluster in the scale bench (./scale.ts), in a process of its own:
 * `tsx scripts/bench/scale-delete.ts DATABASE_URL SLUG`.
 * - clear: what replacing or deleting does to the old inventory rows (`clearInventory`), in a transaction rolled back;
 * - replace: the cluster's inventory read back (`loadClusterInventory`) and written over itself with
 *   `replaceInventory`, as `PUT …/inventory` does after the preview: old rows out, new rows in, fabric and snapshot;
 * - delete: `deleteCluster` (what `rankscope cluster remove` runs), with the job and fault events on it.
 * For each: wall time, PostgreSQL's CPU for the database (./pg-cpu.ts), and the slowest of the reads a console makes
 * meanwhile (the cluster list, every 200 ms, from another process: `… DATABASE_URL --reads`, so that this one's
 * JavaScript work does not delay them), which must not wait for the write. Prints the figures as one JSON line.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { sql } from "drizzle-orm";
import { connectDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { clearInventory, deleteCluster } from "@/db/queries/cluster-delete";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { listClusterSummaries } from "@/db/queries/inventory";
import { replaceInventory } from "@/db/queries/inventory-replace";
import { loadClusterInventory } from "@/db/queries/topology";
import { watchDatabaseCpu } from "./pg-cpu";

const [url, slug] = process.argv.slice(2);
const handle = connectDatabase(url!, { max: 2 });

/** The reader: lists the clusters every 200 ms until its standard input closes, then prints the slowest (ms). */
async function readUntilStdinEnds(): Promise<void> {
  let running = true;
  process.stdin.on("end", () => (running = false)).resume();
  let slowest = 0;
  while (running) {
    const started = performance.now();
    await listClusterSummaries(handle.db);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.stdout.write(`${slowest}\n`);
}

/** A reader process (see above): `stop` ends it and gives its slowest read. */
function startReader(): { stop: () => Promise<number> } {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, url!, "--reads"], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const ended = new Promise<number>((resolve) => child.on("exit", () => resolve(Number(out.trim()))));
  return { stop: () => (child.stdin.end(), ended) };
}

/** Times `work` with PostgreSQL's CPU and the slowest console read made while it runs. */
async function timed(name: string, work: () => Promise<unknown>): Promise<Record<string, number | null>> {
  const reader = startReader();
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // its first read, with the module loading, comes before
  const pgCpu = await watchDatabaseCpu(url!);
  const load = os.loadavg()[0]!;
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const cpu = await pgCpu.stop();
  return {
    [`${name}: wall (s)`]: ms / 1000,
    [`${name}: CPU of PostgreSQL for the database (s)`]: cpu,
    [`${name}: slowest cluster list read meanwhile (ms)`]: await reader.stop(),
    [`${name}: load average (1 min) at its start`]: load,
  };
}

class RolledBack extends Error {}

try {
  if (slug === "--reads") {
    await readUntilStdinEnds();
  } else {
    const cluster = await getClusterOrThrow(handle.db, slug!);
    const cleared = await timed("clear (rolled back)", () =>
      handle.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1 from clusters where id = ${cluster.id} for update`);
          await clearInventory(tx, cluster.id);
          throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        }),
    );
    const inventory = { mode: cluster.mode, ...(await loadClusterInventory(handle.db, cluster.id)) };
    const replaced = await timed("replace", () => replaceInventory(handle.db, cluster.id, inventory, cluster.inventoryRevision, systemActor, {}));
    const deleted = await timed("delete", async () => {
      if (!(await deleteCluster(handle.db, slug!, systemActor))) throw new Error(`no cluster ${slug}`);
    });
    process.stdout.write(`${JSON.stringify({ ...cleared, ...replaced, ...deleted })}\n`);
  }
} finally {
  await handle.pool.end();
}
