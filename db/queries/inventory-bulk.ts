import { sql } from "drizzle-orm";
import { analyzeWritten } from "./analyze-written";
import type { Transaction } from "./inventory";

/**
 * Bulk mode of an inventory import: foreign keys checked once per table by a set-based statement instead of a
 * trigger per row. Each row's foreign-key trigger runs a `select … for key share` on its parent, which locks (and
 * WAL-logs) the parent row again for every child: for a 524,288-NPU SuperCluster that is some five million lookups
 * and locks (2.1M network addresses, a million link ends, half a million dies twice), most of the PostgreSQL time
 * of the import. The parents are all rows of this transaction, which no other session sees, so the locks guard
 * nothing; `validateInventoryKeys` then checks every reference with one anti-join per foreign key.
 *
 * `session_replication_role = replica` turns the triggers off for this transaction only (SET LOCAL); unique and
 * check constraints are indexes and expressions, not triggers, and stay in force. Setting it needs a superuser or
 * (PostgreSQL 15+) `grant set on parameter session_replication_role`; without it the import keeps the triggers and
 * is only slower.
 */
export async function enterBulkMode(tx: Transaction): Promise<boolean> {
  const { rows } = await tx.execute<{ allowed: boolean }>(sql`
    select current_setting('is_superuser') = 'on'
      or (current_setting('server_version_num')::int >= 150000
        and has_parameter_privilege('session_replication_role', 'SET')) as allowed`);
  if (!rows[0]?.allowed) return false;
  await tx.execute(sql`set local session_replication_role = replica`);
  return true;
}

/** Back to normal triggers for the rest of the transaction (fabric, audit: their rows are few). */
export async function leaveBulkMode(tx: Transaction): Promise<void> {
  await tx.execute(sql`set local session_replication_role = origin`);
}

/** Statistics for an import's tables (see analyzeWritten): a super pod's bus planes are planned by their sizes. */
export async function analyzeInventoryTables(tx: Transaction, dies: number): Promise<void> {
  await analyzeWritten(tx, dies, "super_pods, servers, npus, devices, device_net_addresses, links, fabric_planes, fabric_switches, fabric_links");
}

/** A row whose parent is missing: what a foreign-key trigger would have refused. */
export class InventoryKeyError extends Error {
  constructor(readonly constraint: string) {
    super(`insert violates foreign key constraint "${constraint}"`);
    this.name = "InventoryKeyError";
  }
}

/**
 * Every foreign key of a cluster's inventory rows, checked set-based (one anti-join each, in one statement): what
 * the per-row triggers would have checked while they were off. `npus` carry no cluster: theirs is checked by count
 * (every NPU written has its server in the cluster, and NPU ids are unique).
 */
export async function validateInventoryKeys(tx: Transaction, clusterId: number, npusWritten: number): Promise<void> {
  // The tables' statistics predate the rows just written (a few hundred rows where there are now a million), so
  // the planner would probe an index per row (measured: 4.2 s for 524,288 addresses of a 131,072-NPU cluster); a
  // hash anti-join reads each side once.
  await tx.execute(sql`set local enable_nestloop = off`);
  await tx.execute(sql`set local enable_mergejoin = off`);
  await tx.execute(sql`set local work_mem = '256MB'`);
  const { rows } = await tx.execute<Record<string, boolean>>(sql`
    select
      exists (select 1 from servers s where s.cluster_id = ${clusterId} and s.super_pod_ref is not null
        and not exists (select 1 from super_pods p where p.cluster_id = s.cluster_id and p.id = s.super_pod_ref)) as servers_super_pod_same_cluster,
      (select count(*) from npus n join servers s on s.id = n.server_ref where s.cluster_id = ${clusterId}) <> ${npusWritten} as npus_server_ref_servers_id_fk,
      exists (select 1 from devices d where d.cluster_id = ${clusterId}
        and not exists (select 1 from servers s where s.cluster_id = d.cluster_id and s.id = d.server_ref)) as devices_server_same_cluster,
      exists (select 1 from devices d where d.cluster_id = ${clusterId}
        and not exists (select 1 from npus n where n.server_ref = d.server_ref and n.id = d.npu_ref)) as devices_npu_same_server,
      exists (select 1 from device_net_addresses a where a.cluster_id = ${clusterId}
        and not exists (select 1 from devices d where d.cluster_id = a.cluster_id and d.id = a.device_ref)) as device_net_addresses_device_same_cluster,
      exists (select 1 from links l where l.cluster_id = ${clusterId}
        and not exists (select 1 from devices d where d.cluster_id = l.cluster_id and d.id = l.source_device)) as links_source_same_cluster,
      exists (select 1 from links l where l.cluster_id = ${clusterId}
        and not exists (select 1 from devices d where d.cluster_id = l.cluster_id and d.id = l.target_device)) as links_target_same_cluster`);
  await tx.execute(sql`set local enable_nestloop to default`);
  await tx.execute(sql`set local enable_mergejoin to default`);
  await tx.execute(sql`set local work_mem to default`);
  const broken = Object.entries(rows[0] ?? {}).find(([, violated]) => violated);
  if (broken) throw new InventoryKeyError(broken[0]);
}
