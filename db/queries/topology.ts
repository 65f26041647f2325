import { sql } from "drizzle-orm";
import type { ClusterSpec, DieRef, DieSpec, LinkSpec, NetLevelSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";
import type { LinkKind, ServerModel } from "@/lib/inventory/vocabulary";
import { buildTopologyIndex, indexFromSnapshot, type ClusterHeader, type TopologyIndex } from "@/lib/topology/inventory-index";
import type { Database } from "../client";
import { loadSnapshotColumns } from "./inventory-snapshot";
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
