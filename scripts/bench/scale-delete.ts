/**
 * The end of a cluster in the scale bench (./scale.ts), in a process of its own:
 * `tsx scripts/bench/scale-delete.ts DATABASE_URL SLUG`.
 * - replace: the cluster's inventory read back (`loadClusterInventory`) and written over itself with
 *   `replaceInventory`, as `PUT …/inventory` does after the preview: old rows out, new rows in, fabric and snapshot;
 * - delete: `deleteCluster` (what `rankscope cluster remove` runs), with the job and fault events on it.
 * For each: wall time, PostgreSQL's CPU for the database (./pg-cpu.ts), and the slowest of the reads a console does
 * meanwhile (the cluster list, every 200 ms), which must not wait for the write. Prints the figures as one JSON line.
 */
import os from "node:os";
import { connectDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { deleteCluster } from "@/db/queries/cluster-delete";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { listClusterSummaries } from "@/db/queries/inventory";
import { loadClusterInventory, replaceInventory } from "@/db/queries/topology";
import { watchDatabaseCpu } from "./pg-cpu";

const [url, slug] = process.argv.slice(2);
const handle = connectDatabase(url!, { max: 3 });

/** Times `work` with PostgreSQL's CPU and the slowest console read made while it runs. */
async function timed(name: string, work: () => Promise<unknown>): Promise<Record<string, number | null>> {
  const pgCpu = await watchDatabaseCpu(url!);
  let running = true;
  let slowestRead = 0;
  const reads = (async () => {
    while (running) {
      const started = performance.now();
      await listClusterSummaries(handle.db);
      slowestRead = Math.max(slowestRead, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const load = os.loadavg()[0]!;
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  running = false;
  await reads;
  return {
    [`${name}: wall (s)`]: ms / 1000,
    [`${name}: CPU of PostgreSQL for the database (s)`]: await pgCpu.stop(),
    [`${name}: slowest cluster list read meanwhile (ms)`]: slowestRead,
    [`${name}: load average (1 min) at its start`]: load,
  };
}

try {
  const cluster = await getClusterOrThrow(handle.db, slug!);
  const inventory = { mode: cluster.mode, ...(await loadClusterInventory(handle.db, cluster.id)) };
  const replaced = await timed("replace", () => replaceInventory(handle.db, cluster.id, inventory, cluster.inventoryRevision, systemActor, {}));
  const deleted = await timed("delete", async () => {
    if (!(await deleteCluster(handle.db, slug!, systemActor))) throw new Error(`no cluster ${slug}`);
  });
  process.stdout.write(`${JSON.stringify({ ...replaced, ...deleted })}\n`);
} finally {
  await handle.pool.end();
}
