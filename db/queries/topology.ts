import { eq, sql } from "drizzle-orm";
import type { ClusterSpec, DieSpec, LinkSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";
import type { LinkKind, ServerModel } from "@/lib/inventory/vocabulary";
import { buildTopologyIndex, type ClusterHeader, type TopologyIndex } from "@/lib/topology/inventory-index";
import type { Database } from "../client";
import { clusters } from "../schema";
import { recordAudit, type AuditActor } from "./audit";
import { insertInventory } from "./inventory";

/** A cluster by numeric id or by slug, with the inventory revision its derived views are cached under. */
export async function findClusterHeader(db: Database, idOrSlug: string): Promise<ClusterHeader | null> {
  const columns = {
    id: clusters.id,
    slug: clusters.slug,
    name: clusters.name,
    mode: clusters.mode,
    inventoryRevision: clusters.inventoryRevision,
  };
  const where = /^\d{1,9}$/.test(idOrSlug) ? eq(clusters.id, Number(idOrSlug)) : eq(clusters.slug, idOrSlug);
  const [row] = await db.select(columns).from(clusters).where(where).limit(1);
  return row ?? null;
}

/** The first cluster (by id), for pages opened without `?cluster=`. */
export async function firstClusterHeader(db: Database): Promise<ClusterHeader | null> {
  const [row] = await db
    .select({ id: clusters.id, slug: clusters.slug, name: clusters.name, mode: clusters.mode, inventoryRevision: clusters.inventoryRevision })
    .from(clusters)
    .orderBy(clusters.id)
    .limit(1);
  return row ?? null;
}

/** Reads a cluster's whole inventory back into the shape it was written from, in rank-table order. */
export async function loadClusterInventory(db: Database, clusterId: number): Promise<Pick<ClusterSpec, "superPodIds" | "servers" | "links">> {
  const [pods, serverRows, deviceRows, linkRows] = await Promise.all([
    db.execute<{ super_pod_id: string }>(sql`select super_pod_id from super_pods where cluster_id = ${clusterId} order by position, id`),
    db.execute<{ id: number; server_id: string; host_ip: string | null; model: ServerModel; super_pod_id: string | null }>(sql`
      select s.id, s.server_id, host(s.host_ip) as host_ip, s.model, p.super_pod_id
      from servers s left join super_pods p on p.id = s.super_pod_ref
      where s.cluster_id = ${clusterId} order by s.position, s.id`),
    db.execute<{
      server_ref: number;
      npu_index: number;
      device_id: number;
      die_index: 0 | 1;
      super_device_id: string | number | null;
      device_ip: string | null;
      device_port: number | null;
      backup_device_ip: string | null;
      backup_device_port: number | null;
      host_port: number | null;
    }>(sql`
      select d.server_ref, n.npu_index, d.device_id, d.die_index, d.super_device_id, host(d.device_ip) as device_ip,
        d.device_port, host(d.backup_device_ip) as backup_device_ip, d.backup_device_port, d.host_port
      from devices d join npus n on n.id = d.npu_ref
      where d.cluster_id = ${clusterId} order by d.server_ref, n.npu_index, d.die_index`),
    db.execute<{ kind: LinkKind; a_server: number; a_device: number; b_server: number; b_device: number }>(sql`
      select l.kind, a.server_ref as a_server, a.device_id as a_device, b.server_ref as b_server, b.device_id as b_device
      from links l join devices a on a.id = l.source_device join devices b on b.id = l.target_device
      where l.cluster_id = ${clusterId} order by l.id`),
  ]);

  const servers = new Map<number, ServerSpec & { npuMap: Map<number, NpuSpec> }>();
  for (const row of serverRows.rows) {
    servers.set(row.id, {
      serverId: row.server_id,
      hostIp: row.host_ip,
      model: row.model,
      superPodId: row.super_pod_id,
      npus: [],
      npuMap: new Map(),
    });
  }
  for (const row of deviceRows.rows) {
    const server = servers.get(row.server_ref);
    if (!server) continue;
    let npu = server.npuMap.get(row.npu_index);
    if (!npu) {
      npu = { npuIndex: row.npu_index, dies: [] };
      server.npuMap.set(row.npu_index, npu);
      server.npus.push(npu);
    }
    const die: DieSpec = {
      deviceId: row.device_id,
      dieIndex: row.die_index,
      superDeviceId: row.super_device_id === null ? null : Number(row.super_device_id),
      deviceIp: row.device_ip,
      devicePort: row.device_port,
      backupDeviceIp: row.backup_device_ip,
      backupDevicePort: row.backup_device_port,
      hostPort: row.host_port,
    };
    npu.dies.push(die);
  }
  const links: LinkSpec[] = [];
  for (const row of linkRows.rows) {
    const a = servers.get(row.a_server);
    const b = servers.get(row.b_server);
    if (!a || !b) continue;
    links.push({ kind: row.kind, source: { serverId: a.serverId, deviceId: row.a_device }, target: { serverId: b.serverId, deviceId: row.b_device } });
  }
  return {
    superPodIds: pods.rows.map((row) => row.super_pod_id),
    servers: [...servers.values()].map(({ npuMap: _npuMap, ...server }) => server),
    links,
  };
}

/**
 * The topology index of a cluster at its current inventory revision. Indexes are kept per (cluster, revision) in
 * this process, so repeated views, searches and details cost no database work beyond reading the revision.
 */
const cacheSize = 4;
const globalForTopology = globalThis as typeof globalThis & { rankscopeTopologyCache?: Map<string, Promise<TopologyIndex>> };

export function topologyIndex(db: Database, cluster: ClusterHeader): Promise<TopologyIndex> {
  const cache = (globalForTopology.rankscopeTopologyCache ??= new Map());
  const key = `${cluster.id}@${cluster.inventoryRevision}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit); // most recently used last
    return hit;
  }
  const pending = loadClusterInventory(db, cluster.id).then((inventory) => buildTopologyIndex(cluster, inventory));
  pending.catch(() => cache.delete(key));
  cache.set(key, pending);
  while (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  return pending;
}

/** The inventory changed since the operator's preview: they must look again before writing. */
export class InventoryRevisionConflictError extends Error {
  constructor(readonly current: number) {
    super(`the inventory changed since the preview (now at revision ${current}): preview again`);
    this.name = "InventoryRevisionConflictError";
  }
}

/**
 * Replaces a cluster's whole inventory in one transaction, if it is still at `expectedRevision` (the revision the
 * preview was made against), and bumps the revision so every cached topology view is dropped. Returns the new one.
 */
export async function replaceInventory(
  db: Database,
  clusterId: number,
  inventory: Pick<ClusterSpec, "mode" | "superPodIds" | "servers" | "links">,
  expectedRevision: number,
  actor: AuditActor,
  summary: Record<string, unknown>,
): Promise<number> {
  return db.transaction(async (tx) => {
    const locked = await tx.execute<{ inventory_revision: number }>(
      sql`select inventory_revision from clusters where id = ${clusterId} for update`,
    );
    const current = locked.rows[0]?.inventory_revision;
    if (current === undefined) throw new Error(`no cluster ${clusterId}`);
    if (current !== expectedRevision) throw new InventoryRevisionConflictError(current);
    await tx.execute(sql`delete from links where cluster_id = ${clusterId}`);
    await tx.execute(sql`delete from servers where cluster_id = ${clusterId}`);
    await tx.execute(sql`delete from super_pods where cluster_id = ${clusterId}`);
    await insertInventory(tx, clusterId, inventory);
    const [updated] = await tx
      .update(clusters)
      .set({ mode: inventory.mode, inventoryRevision: sql`${clusters.inventoryRevision} + 1`, updatedAt: new Date() })
      .where(eq(clusters.id, clusterId))
      .returning({ revision: clusters.inventoryRevision });
    await recordAudit(tx, {
      actor,
      action: "cluster.inventory_replace",
      target: { type: "cluster", id: clusterId },
      details: { fromRevision: current, toRevision: updated!.revision, ...summary },
    });
    return updated!.revision;
  });
}
