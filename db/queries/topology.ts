import { createHash } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type pg from "pg";
import { DomainError } from "@/lib/errors";
import type { ClusterSpec, DieRef, DieSpec, LinkSpec, NetLevelSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";
import type { LinkKind, ServerModel } from "@/lib/inventory/vocabulary";
import { healthOf } from "@/lib/faults/health";
import { faultScopeOf, nodeDetails, recentFaultLimit, recentFaultWindowMs, type FaultScope, type SavedRankTable } from "@/lib/topology/details";
import { buildTopologyIndex, indexFromSnapshot, type ClusterHeader, type TopologyIndex } from "@/lib/topology/inventory-index";
import type { NodeDetails, NodeKind, RecentFault } from "@/lib/topology/model";
import { ranksFromRankTable } from "@/lib/topology/ranks";
import type { Database, DatabaseHandle } from "../client";
import { clusters, rankTableRevisions } from "../schema";
import { recordAudit, type AuditActor } from "./audit";
import { clusterFabricProfile } from "./fabric";
import { withStoredFabric } from "./fabric-details";
import { decodableGzip, revisionText } from "./rank-tables";
import { dieFaultOf, faultHealthSnapshot, type FaultEventRow } from "./faults";
import { clearInventory } from "./cluster-delete";
import { insertInventory } from "./inventory";
import { loadSnapshotColumns, storeInventorySnapshot } from "./inventory-snapshot";
import { loadNetLevels } from "./net-levels";

/**
 * Reads a cluster's whole inventory back into the shape it was written from, in rank-table order. `netLevels: false`
 * leaves out the dies' "2.0" network levels: the topology index has no use for them, and for a 524,288-NPU
 * SuperCluster they are 2.1M address rows, more than the rest of the inventory together.
 */
export async function loadClusterInventory(
  db: Database,
  clusterId: number,
  { netLevels: withNetLevels = true }: { netLevels?: boolean } = {},
): Promise<Pick<ClusterSpec, "superPodIds" | "servers" | "links">> {
  const [pods, serverRows, deviceRows, linkRows, netLevels] = await Promise.all([
    db.execute<{ super_pod_id: string }>(sql`select super_pod_id from super_pods where cluster_id = ${clusterId} order by position, id`),
    db.execute<{ id: number; server_id: string; host_ip: string | null; model: ServerModel; super_pod_id: string | null }>(sql`
      select s.id, s.server_id, host(s.host_ip) as host_ip, s.model, p.super_pod_id
      from servers s left join super_pods p on p.id = s.super_pod_ref
      where s.cluster_id = ${clusterId} order by s.position, s.id`),
    db.execute<{
      id: number;
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
      select d.id, d.server_ref, n.npu_index, d.device_id, d.die_index, d.super_device_id, host(d.device_ip) as device_ip,
        d.device_port, host(d.backup_device_ip) as backup_device_ip, d.backup_device_port, d.host_port
      from devices d join npus n on n.id = d.npu_ref
      where d.cluster_id = ${clusterId} order by d.server_ref, n.npu_index, d.die_index`),
    // Ends by device row id, resolved against the dies read above: joining devices twice cost more than the rest of
    // the read for a 524,288-NPU cluster's million links.
    db.execute<{ kind: LinkKind; source_device: number; target_device: number }>(sql`
      select l.kind, l.source_device, l.target_device from links l where l.cluster_id = ${clusterId} order by l.id`),
    withNetLevels ? loadNetLevels(db, clusterId) : new Map<string, NetLevelSpec[]>(),
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
  // One end object per die, shared by all its links (they are only read).
  const dieRefs = new Map<number, DieRef>();
  for (const row of deviceRows.rows) {
    const server = servers.get(row.server_ref);
    if (!server) continue;
    dieRefs.set(row.id, { serverId: server.serverId, deviceId: row.device_id });
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
    const levels = netLevels.get(`${row.server_ref}/${row.device_id}`);
    if (levels) die.netLevels = levels;
    npu.dies.push(die);
  }
  const links: LinkSpec[] = [];
  for (const row of linkRows.rows) {
    const source = dieRefs.get(row.source_device);
    const target = dieRefs.get(row.target_device);
    if (!source || !target) continue;
    links.push({ kind: row.kind, source, target });
  }
  return {
    superPodIds: pods.rows.map((row) => row.super_pod_id),
    servers: [...servers.values()].map(({ npuMap: _npuMap, ...server }) => server),
    links,
  };
}

/**
 * The topology index of a cluster at its current inventory revision. Indexes are kept per (cluster, revision) in
 * this process, so repeated views, searches and details cost no database work beyond reading the revision; requests
 * that arrive while one is being built share that build (one per revision per process). The cache is bounded by the
 * dies it holds, least recently used out first, so memory follows dies, not clusters: a 524,288-NPU SuperCluster's
 * index is about 100 MB with its search index (scripts/bench/index-build.ts; the object index it replaced was 0.8 GB).
 */
export const maxCachedIndexDies = 1_100_000;
const maxCachedIndexes = 16;
const globalForTopology = globalThis as typeof globalThis & { rankscopeTopologyCache?: Map<string, { index: Promise<TopologyIndex>; dies: number }> };

/** How many indexes this process has built: what the cache spares shows here (the scale bench reads it). */
let builtIndexes = 0;
export function builtIndexCount(): number {
  return builtIndexes;
}
/** How many of them were built from a stored snapshot rather than the rows. */
let indexesFromSnapshots = 0;
export function snapshotIndexCount(): number {
  return indexesFromSnapshots;
}

/**
 * The index from the snapshot stored with the inventory at this revision (one value read, see
 * ./inventory-snapshot.ts, indexed from its columns directly), else from the rows. Keyed by revision, so another
 * instance's change is never served stale.
 */
async function buildIndex(db: Database, cluster: ClusterHeader): Promise<TopologyIndex> {
  const stored = await loadSnapshotColumns(db, cluster.id, cluster.inventoryRevision);
  if (stored) {
    indexesFromSnapshots++;
    return indexFromSnapshot(cluster, stored);
  }
  return buildTopologyIndex(cluster, await loadClusterInventory(db, cluster.id, { netLevels: false }));
}

export function topologyIndex(db: Database, cluster: ClusterHeader): Promise<TopologyIndex> {
  const cache = (globalForTopology.rankscopeTopologyCache ??= new Map());
  const key = `${cluster.id}@${cluster.inventoryRevision}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit); // most recently used last
    return hit.index;
  }
  const entry = { index: buildIndex(db, cluster), dies: 0 };
  builtIndexes++;
  entry.index.then(
    (index) => {
      entry.dies = index.dieCount;
      // Oldest first, never the one just built.
      let dies = [...cache.values()].reduce((sum, cached) => sum + cached.dies, 0);
      for (const [cachedKey, cached] of cache) {
        if (dies <= maxCachedIndexDies || cached === entry) break;
        cache.delete(cachedKey);
        dies -= cached.dies;
      }
    },
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  // An older revision of the cluster will not be asked for again (its ETags name it): its memory goes now.
  for (const cachedKey of cache.keys()) if (cachedKey.startsWith(`${cluster.id}@`)) cache.delete(cachedKey);
  cache.set(key, entry);
  while (cache.size > maxCachedIndexes) cache.delete(cache.keys().next().value!);
  return entry.index;
}

/** The inventory changed since the operator's preview: they must look again before writing. */
export class InventoryRevisionConflictError extends DomainError {
  constructor(readonly current: number) {
    super("conflict", `the inventory changed since the preview (now at revision ${current}): preview again`, { details: { revision: current } });
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
    await clearInventory(tx, clusterId);
    await insertInventory(tx, clusterId, inventory);
    const [updated] = await tx
      .update(clusters)
      .set({ mode: inventory.mode, inventoryRevision: sql`${clusters.inventoryRevision} + 1`, updatedAt: new Date() })
      .where(eq(clusters.id, clusterId))
      .returning({ revision: clusters.inventoryRevision });
    await storeInventorySnapshot(tx, clusterId);
    await recordAudit(tx, {
      actor,
      action: "cluster.inventory_replace",
      target: { type: "cluster", id: clusterId },
      details: { fromRevision: current, toRevision: updated!.revision, ...summary },
    });
    return updated!.revision;
  });
}

/**
 * The newest fault events of a node's scope (lib/topology/details.ts faultScopeOf), at most `limit`, with how many
 * there are and how many are open: events that began since `since`, and older ones still open. Both halves are
 * indexed like the fault timeline's window (the BRIN on began_at, the partial index on open events), so the cost
 * follows the events of the window, not the table. Targets are matched by their stable keys, not the inventory refs
 * resolved at ingestion, so events outlive a re-seeded inventory.
 */
export async function recentNodeFaults(
  pool: pg.Pool,
  clusterId: number,
  scope: Pick<FaultScope, "targetKeys" | "linkEnds">,
  since: number,
  limit: number,
): Promise<{ total: number; open: number; events: RecentFault[] }> {
  const { rows } = await pool.query<FaultEventRow & { total: string; open: string }>(
    // One arm per index (a node's own targets; links by their first or their second end), so each reads only the
    // node's rows; `union` drops a link that has both ends in the node.
    `with hits as (
       select id, target_kind, target_key, kind, level, code, began_at, ended_at from fault_events
       where cluster_id = $1 and target_key = any($3::text[])
       union
       select id, target_kind, target_key, kind, level, code, began_at, ended_at from fault_events
       where cluster_id = $1 and target_kind = 'link' and split_part(substr(target_key, 6), '~', 1) = any($4::text[])
       union
       select id, target_kind, target_key, kind, level, code, began_at, ended_at from fault_events
       where cluster_id = $1 and target_kind = 'link' and split_part(target_key, '~', 2) = any($4::text[])
     )
     select f.id, f.target_kind, f.target_key, f.kind, f.level, f.code, f.began_at, f.ended_at,
       count(*) over () as total, count(*) filter (where f.ended_at is null) over () as open
     from hits f
     where f.began_at >= $2::timestamptz or f.ended_at is null
     order by f.began_at desc, f.id
     limit $5`,
    [clusterId, new Date(since).toISOString(), scope.targetKeys, scope.linkEnds, limit],
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    open: Number(rows[0]?.open ?? 0),
    events: rows.map(dieFaultOf),
  };
}

/**
 * Ranks per die of saved revisions, by revision id. A revision never changes, so each is parsed once per process;
 * the cache is bounded by the dies it holds (a 16,384-die table is one of many that fit).
 */
const maxCachedDies = 300_000;
const globalForRanks = globalThis as typeof globalThis & { rankscopeRevisionRanks?: Map<number, ReadonlyMap<string, number>> };

let parsedRevisions = 0;
/** How many revisions this process has parsed so far: what the cache spares shows here. */
export function parsedRevisionCount(): number {
  return parsedRevisions;
}

/**
 * The latest revision of every saved rank table of the cluster or of no cluster, as ranks per die id. Only revisions
 * this process has not read yet are fetched and parsed; the rest cost one small query.
 */
export async function savedRankTables(db: Database, clusterId: number): Promise<SavedRankTable[]> {
  const cache = (globalForRanks.rankscopeRevisionRanks ??= new Map());
  const heads = await db.execute<{ id: number; name: string; cluster_id: number | null; revision: number; revision_id: string }>(sql`
    select t.id, t.name, t.cluster_id, t.revision, r.id as revision_id
    from rank_tables t join rank_table_revisions r on r.rank_table_id = t.id and r.revision = t.revision
    where t.cluster_id = ${clusterId} or t.cluster_id is null
    order by t.name, t.id`);
  const found = new Map<number, ReadonlyMap<string, number>>();
  const missing: number[] = [];
  for (const head of heads.rows) {
    const id = Number(head.revision_id);
    const ranks = cache.get(id);
    if (!ranks) {
      missing.push(id);
      continue;
    }
    found.set(id, ranks);
    cache.delete(id);
    cache.set(id, ranks); // most recently used last
  }
  if (missing.length > 0) {
    const texts = await db
      .select({ id: rankTableRevisions.id, text: rankTableRevisions.text, gzip: decodableGzip })
      .from(rankTableRevisions)
      .where(inArray(rankTableRevisions.id, missing));
    for (const row of texts) {
      parsedRevisions++;
      // A revision too long to be one string (a streamed save of a SuperCluster's table) names no ranks here.
      const text = revisionText(row.text, row.gzip);
      const ranks = (text === undefined ? undefined : ranksFromRankTable(text)?.ranks) ?? new Map<string, number>();
      found.set(Number(row.id), ranks);
      cache.set(Number(row.id), ranks);
    }
    let dies = [...cache.values()].reduce((sum, ranks) => sum + ranks.size, 0);
    for (const [id, ranks] of cache) {
      if (dies <= maxCachedDies) break;
      cache.delete(id); // least recently used first
      dies -= ranks.size;
    }
  }
  return heads.rows.flatMap((head) => {
    const ranks = found.get(Number(head.revision_id));
    return ranks ? [{ table: { id: head.id, name: head.name, revision: head.revision, clusterId: head.cluster_id }, ranks }] : [];
  });
}

const minute = 60_000;

/**
 * Everything the details panel shows for one node: its fields and links from the cached inventory index, its live
 * health, its recent faults and its rank-table memberships, with a short version of what the database added (for
 * the ETag). Throws TopologyNotFoundError for an unknown node.
 */
export async function loadNodeDetails(
  handle: DatabaseHandle,
  cluster: ClusterHeader,
  kind: NodeKind,
  id: string,
  now = Date.now(),
): Promise<{ details: NodeDetails; version: string }> {
  const index = await topologyIndex(handle.db, cluster);
  const scope = faultScopeOf(index, kind, id);
  // Whole minutes, so that the answer (and its ETag) stays the same while nothing happens.
  const since = Math.floor((now - recentFaultWindowMs) / minute) * minute;
  const [health, recent, savedTables] = await Promise.all([
    faultHealthSnapshot(handle.pool, cluster.id),
    recentNodeFaults(handle.pool, cluster.id, scope, since, recentFaultLimit),
    savedRankTables(handle.db, cluster.id),
  ]);
  const faults = health.collected ? { since, ...recent, timeline: scope.timeline } : null;
  // A die's plane ports come from the cluster's hardware profile; a fabric node's stored parts from the fabric.
  const profile = kind === "die" || kind === "npu" ? await clusterFabricProfile(handle.db, cluster.id) : null;
  let details = nodeDetails(index, kind, id, { savedTables, faults, profile });
  details = await withStoredFabric(handle.db, cluster.id, index, kind, id, details);
  if (health.collected) details.node = { ...details.node, health: healthOf(details.node, health.faults) };
  const fabricPart = kind === "plane" || kind === "switch" || kind === "die" || kind === "npu" ? [details.node, details.planePorts, details.impact] : null;
  const version = createHash("sha256").update(JSON.stringify([health.version, faults, details.rankTables, fabricPart])).digest("base64url").slice(0, 16);
  return { details, version };
}
