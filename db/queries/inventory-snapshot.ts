import { sql } from "drizzle-orm";
import type { ClusterSpec } from "@/lib/inventory/model";
import { inventoryFromSnapshot, inventorySnapshotFormat, readableSnapshotFormats, type InventorySnapshot } from "@/lib/topology/inventory-snapshot";
import type { Database } from "../client";
import type { Transaction } from "./inventory";

/**
 * Stores the cluster's inventory snapshot (lib/topology/inventory-snapshot.ts) at its current inventory revision,
 * inside the transaction that wrote the inventory (so it commits with it): one statement, built by PostgreSQL from
 * the rows just written, in the order loadClusterInventory reads them. The columns are aggregated from subqueries
 * already in order (a sorted subquery feeds an aggregate in that order, PostgreSQL's documented way), so each
 * column costs one pass, not a sort of its own.
 */
export async function storeInventorySnapshot(tx: Transaction, clusterId: number): Promise<void> {
  // Statistics predate the rows just written, so the planner takes each side for a few hundred rows and joins the
  // links to the dies by nested loops over a CTE (no index there): 2 minutes for 16,384 NPUs. Hash joins read each
  // side once.
  await tx.execute(sql`set local enable_nestloop = off`);
  await tx.execute(sql`set local work_mem = '256MB'`);
  await tx.execute(sql`
    with srv as (
      select s.id, s.server_id, host(s.host_ip) as host_ip, s.model, p.super_pod_id,
        (row_number() over (order by s.position, s.id) - 1)::int as ord
      from servers s left join super_pods p on p.id = s.super_pod_ref
      where s.cluster_id = ${clusterId}
    ), die as materialized (
      select d.id, srv.ord as server, n.npu_index, d.device_id, d.die_index, d.super_device_id, host(d.device_ip) as device_ip,
        d.device_port, host(d.backup_device_ip) as backup_device_ip, d.backup_device_port, d.host_port,
        (row_number() over (order by d.server_ref, n.npu_index, d.die_index) - 1)::int as ord
      from devices d join npus n on n.id = d.npu_ref join srv on srv.id = d.server_ref
      where d.cluster_id = ${clusterId}
    ), kinds as (
      select enum_range(null::link_kind) as labels
    )
    insert into inventory_snapshots (cluster_id, inventory_revision, counts, body)
    select c.id, c.inventory_revision, json_build_object(
      'superPods', (select count(*) from super_pods where cluster_id = c.id), 'servers', (select count(*) from srv),
      'npus', (select count(*) from npus n join srv on srv.id = n.server_ref), 'devices', (select count(*) from die),
      'serversByModel', coalesce((select json_object_agg(m.model, m.n) from (select model, count(*) as n from srv group by model) m), '{}')
    ), json_build_object(
      'format', ${inventorySnapshotFormat}::int,
      'superPodIds', coalesce((select json_agg(x.super_pod_id) from (select super_pod_id from super_pods where cluster_id = c.id order by position, id) x), '[]'),
      'servers', coalesce((select json_agg(json_build_array(x.server_id, x.host_ip, x.model, x.super_pod_id)) from (select * from srv order by ord) x), '[]'),
      'dies', (select json_build_object(
          'server', coalesce(json_agg(x.server), '[]'), 'npuIndex', coalesce(json_agg(x.npu_index), '[]'),
          'deviceId', coalesce(json_agg(x.device_id), '[]'), 'dieIndex', coalesce(json_agg(x.die_index), '[]'),
          'superDeviceId', coalesce(json_agg(x.super_device_id), '[]'), 'deviceIp', coalesce(json_agg(x.device_ip), '[]'),
          'devicePort', coalesce(json_agg(x.device_port), '[]'), 'backupDeviceIp', coalesce(json_agg(x.backup_device_ip), '[]'),
          'backupDevicePort', coalesce(json_agg(x.backup_device_port), '[]'), 'hostPort', coalesce(json_agg(x.host_port), '[]'))
        from (select * from die order by ord) x),
      'kinds', (select array_to_json(labels) from kinds),
      'links', (select json_build_object(
          'kind', coalesce(json_agg(x.kind), '[]'), 'source', coalesce(json_agg(x.source), '[]'), 'target', coalesce(json_agg(x.target), '[]'))
        from (
          -- Ends as differences (lib/topology/inventory-snapshot.ts, format 2).
          select array_position((select labels from kinds), l.kind) - 1 as kind, a.ord - lag(a.ord, 1, 0) over (order by l.id) as source,
            b.ord - a.ord as target
          from links l join die a on a.id = l.source_device join die b on b.id = l.target_device
          where l.cluster_id = c.id order by l.id
        ) x)
    )
    from clusters c where c.id = ${clusterId}
    on conflict (cluster_id) do update set inventory_revision = excluded.inventory_revision, counts = excluded.counts, body = excluded.body, created_at = now()`);
  await tx.execute(sql`set local enable_nestloop to default`);
  await tx.execute(sql`set local work_mem to default`);
}

/**
 * The cluster's stored snapshot at `revision`, as stored (columns: what the topology index is built from), or null
 * when there is none of that revision (written before snapshots were, or the inventory changed since): the caller
 * then reads the rows.
 */
export async function loadSnapshotColumns(db: Database, clusterId: number, revision: number): Promise<InventorySnapshot | null> {
  const { rows } = await db.execute<{ body: InventorySnapshot }>(
    sql`select body from inventory_snapshots where cluster_id = ${clusterId} and inventory_revision = ${revision}`,
  );
  const body = rows[0]?.body;
  return body && readableSnapshotFormats.includes(body.format) ? body : null;
}

/** The inventory of the cluster at `revision` from its stored snapshot (see loadSnapshotColumns), or null. */
export async function loadInventorySnapshot(
  db: Database,
  clusterId: number,
  revision: number,
): Promise<Pick<ClusterSpec, "superPodIds" | "servers" | "links"> | null> {
  const body = await loadSnapshotColumns(db, clusterId, revision);
  return body && inventoryFromSnapshot(body);
}
