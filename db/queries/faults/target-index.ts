import type pg from "pg";
import type { ClusterHeader } from "@/lib/topology/inventory-index";

/* Inventory lookup: super pod id → ref, server id → refs, (server, device id) → die. Cached per inventory revision. */

interface ServerEntry {
  ref: number;
  serverId: string;
  superPodRef: number | null;
  superPodId: string | null;
  hostIp: string | null;
  /** Index of the server inside its super pod (A3 ServerIndex), in inventory order. */
  podIndex: number;
}

export interface TargetIndex {
  revision: number;
  superPods: Map<string, number>;
  servers: Map<string, ServerEntry>;
  serversByRef: Map<number, ServerEntry>;
  /** `${serverRef}/${deviceId}` → die. */
  dies: Map<string, { ref: number; npuIndex: number }>;
  /** A die's ref → its device id: the timeline names each event's die by it (built here once, not per request). */
  deviceIdByRef: Map<number, number>;
  /** `${serverRef}/${npuIndex}` of every NPU. */
  npus: Set<string>;
  /** By host IP, for device-info ConfigMaps named after a node that is not the server id. */
  serversByHost: Map<string, ServerEntry>;
}

/** By cluster id; an entry is used while the cluster's inventory revision is the one it was built from. */
const indexCache = new Map<number, TargetIndex>();

export async function loadTargetIndex(pool: pg.Pool | pg.PoolClient, cluster: ClusterHeader): Promise<TargetIndex> {
  const cached = indexCache.get(cluster.id);
  if (cached && cached.revision === cluster.inventoryRevision) return cached;
  const [pods, servers, dies] = await Promise.all([
    pool.query<{ id: number; super_pod_id: string }>("select id, super_pod_id from super_pods where cluster_id = $1", [cluster.id]),
    pool.query<{ id: number; server_id: string; super_pod_ref: number | null; host_ip: string | null }>(
      "select id, server_id, super_pod_ref, host(host_ip) as host_ip from servers where cluster_id = $1 order by position, id",
      [cluster.id],
    ),
    pool.query<{ id: number; server_ref: number; device_id: number; npu_index: number }>(
      "select d.id, d.server_ref, d.device_id, n.npu_index from devices d join npus n on n.id = d.npu_ref where d.cluster_id = $1",
      [cluster.id],
    ),
  ]);
  const podById = new Map(pods.rows.map((p) => [p.id, p.super_pod_id]));
  const index: TargetIndex = {
    revision: cluster.inventoryRevision,
    superPods: new Map(pods.rows.map((p) => [p.super_pod_id, p.id])),
    servers: new Map(),
    serversByRef: new Map(),
    dies: new Map(),
    deviceIdByRef: new Map(),
    npus: new Set(),
    serversByHost: new Map(),
  };
  const perPod = new Map<number | null, number>();
  for (const s of servers.rows) {
    const podIndex = perPod.get(s.super_pod_ref) ?? 0;
    perPod.set(s.super_pod_ref, podIndex + 1);
    const entry: ServerEntry = {
      ref: s.id,
      serverId: s.server_id,
      superPodRef: s.super_pod_ref,
      superPodId: s.super_pod_ref === null ? null : (podById.get(s.super_pod_ref) ?? null),
      hostIp: s.host_ip,
      podIndex,
    };
    index.servers.set(s.server_id, entry);
    index.serversByRef.set(s.id, entry);
    if (s.host_ip) index.serversByHost.set(s.host_ip, entry);
  }
  for (const d of dies.rows) {
    index.dies.set(`${d.server_ref}/${d.device_id}`, { ref: d.id, npuIndex: d.npu_index });
    index.deviceIdByRef.set(d.id, d.device_id);
    index.npus.add(`${d.server_ref}/${d.npu_index}`);
  }
  indexCache.set(cluster.id, index);
  return index;
}
