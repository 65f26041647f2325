import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../client";
import { recordAudit, type AuditActor } from "./audit";
import { findCluster } from "./clusters";
import type { Transaction } from "./inventory";
import { enterBulkMode, leaveBulkMode } from "./inventory-bulk";

/**
 * A cluster's inventory rows, leaves first: each statement deletes one table's rows of the cluster at once. The
 * foreign keys' ON DELETE CASCADE did the same one parent row at a time (a trigger per deleted row, running a delete
 * per child table), and its cached plan for a key of (cluster_id, ref) also reads the cluster_id index, i.e. every
 * entry of the cluster, for each row: quadratic. Measured (issue 21): 17.7 s at 16,384 NPUs (12.9 s PostgreSQL CPU),
 * cancelled after 15 min (697 s CPU) at 131,072, after 18 min at 524,288. `npus` carry no cluster and go by their
 * servers. The order matters only with the per-row triggers on (see `clearInventory`): a parent deleted after its
 * children finds none left to cascade to.
 *
 * Every foreign key that references one of these tables comes from one of them and stays within the cluster (the
 * composite keys carry cluster_id; an NPU's dies are on its server), so once all of them are gone nothing is left
 * dangling; db/queries/cluster-delete.int.test.ts reads the catalogue to keep that list whole.
 */
export const inventoryTables = [
  "links",
  "device_net_addresses",
  "fabric_links",
  "fabric_switches",
  "fabric_planes",
  "devices",
  "npus",
  "servers",
  "super_pods",
] as const;

const deleteStatements: Record<(typeof inventoryTables)[number], (clusterId: number) => SQL> = {
  links: (id) => sql`delete from links where cluster_id = ${id}`,
  // Its one index on cluster_id is partial (EIDs only), so the rows are found through the cluster's dies (device_ref
  // is indexed; with a big share of the table the planner reads it once and hash-joins instead).
  device_net_addresses: (id) => sql`delete from device_net_addresses a using devices d where d.cluster_id = ${id} and a.device_ref = d.id`,
  fabric_links: (id) => sql`delete from fabric_links where cluster_id = ${id}`,
  fabric_switches: (id) => sql`delete from fabric_switches where cluster_id = ${id}`,
  fabric_planes: (id) => sql`delete from fabric_planes where cluster_id = ${id}`,
  devices: (id) => sql`delete from devices where cluster_id = ${id}`,
  npus: (id) => sql`delete from npus n using servers s where s.cluster_id = ${id} and n.server_ref = s.id`,
  servers: (id) => sql`delete from servers where cluster_id = ${id}`,
  super_pods: (id) => sql`delete from super_pods where cluster_id = ${id}`,
};

/**
 * Deletes every inventory row of a cluster (`inventoryTables`) inside the caller's transaction, which must hold the
 * cluster's row lock (`for update`): every other writer of these rows takes it too (inventory replace, fabric
 * profile), or writes a cluster no one else sees yet (the import). With `session_replication_role = replica`
 * (./inventory-bulk.ts, when the role may set it) no per-row foreign-key trigger runs: nothing outside the set
 * references it, so they would only look for children already deleted. Without it the triggers run, find nothing
 * (leaves go first) and the delete is only slower. Unique and check constraints and row locks hold either way.
 */
export async function clearInventory(tx: Transaction, clusterId: number): Promise<void> {
  const bulk = await enterBulkMode(tx);
  for (const table of inventoryTables) await tx.execute(deleteStatements[table](clusterId));
  if (bulk) await leaveBulkMode(tx);
}

/** What deleting a cluster takes with it: shown before the operator confirms, and kept in the audit log. */
export interface ClusterLosses {
  id: number;
  slug: string;
  name: string;
  superPods: number;
  servers: number;
  dies: number;
  jobs: number;
  faultEvents: number;
  /** Saved rank tables of the cluster: they stay, no longer tied to a cluster. */
  rankTablesDetached: number;
}

async function lossesOf(db: Database | Transaction, idOrSlug: string, forUpdate: boolean): Promise<ClusterLosses | null> {
  const found = await findCluster(db, idOrSlug, { forUpdate });
  if (!found) return null;
  const cluster = { id: found.id, slug: found.slug, name: found.name };
  const { rows: counts } = await db.execute<Record<"super_pods" | "servers" | "dies" | "jobs" | "fault_events" | "rank_tables", number>>(sql`
    select (select count(*)::int from super_pods where cluster_id = ${cluster.id}) as super_pods,
      (select count(*)::int from servers where cluster_id = ${cluster.id}) as servers,
      (select count(*)::int from devices where cluster_id = ${cluster.id}) as dies,
      (select count(*)::int from jobs where cluster_id = ${cluster.id}) as jobs,
      (select count(*)::int from fault_events where cluster_id = ${cluster.id}) as fault_events,
      (select count(*)::int from rank_tables where cluster_id = ${cluster.id}) as rank_tables`);
  const c = counts[0]!;
  return { ...cluster, superPods: c.super_pods, servers: c.servers, dies: c.dies, jobs: c.jobs, faultEvents: c.fault_events, rankTablesDetached: c.rank_tables };
}

/** What `deleteCluster` would take with it, without deleting; null when there is no such cluster. */
export function clusterLosses(db: Database, idOrSlug: string): Promise<ClusterLosses | null> {
  return lossesOf(db, idOrSlug, false);
}

/**
 * Deletes a cluster (by id or slug) in one transaction, audited; null when there is none. Its inventory goes set-based
 * (`clearInventory`), then the cluster row with the foreign keys' usual effect on what refers to it: its jobs (with
 * their ranks and diagnoses), fault events and their rollups, device-info snapshots, port policy, CPU layouts and
 * inventory snapshot are deleted; its saved rank tables stay, detached (cluster_id set to null), as does the audit
 * log. Readers keep seeing the cluster until the commit; writers of its rows (fault ingestion, inventory replace)
 * wait for the row lock and then find it gone.
 */
export async function deleteCluster(db: Database, idOrSlug: string, actor: AuditActor): Promise<ClusterLosses | null> {
  return db.transaction(async (tx) => {
    const losses = await lossesOf(tx, idOrSlug, true);
    if (!losses) return null;
    await clearInventory(tx, losses.id);
    await tx.execute(sql`delete from clusters where id = ${losses.id}`);
    // The hours its events' delete marked stale for the rollups (a log without a key; retention drains what is left).
    await tx.execute(sql`delete from fault_rollup_dirty where cluster_id = ${losses.id}`);
    await recordAudit(tx, { actor, action: "cluster.delete", target: { type: "cluster", id: losses.slug }, before: { ...losses } });
    return losses;
  });
}
