import type pg from "pg";
import type { ClusterHeader } from "@/lib/topology/inventory-index";

/*
 * Inventory lookup: super pod id → ref, server id → refs, (server, device id) → die. Cached per inventory revision.
 * A server's dies are columns on its entry, not an object or a map key per die: at 524,288 dies a map per die took
 * about 2 s to build on the first timeline request and held hundreds of MB (scripts/bench/scale.ts), and filtering
 * the timeline by a server scanned every die's key.
 */

interface ServerEntry {
  ref: number;
  serverId: string;
  superPodRef: number | null;
  superPodId: string | null;
  hostIp: string | null;
  /** Index of the server inside its super pod (A3 ServerIndex), in inventory order. */
  podIndex: number;
  /** Its dies in device id order: each one's device id, row id and NPU index. */
  deviceIds: Int32Array;
  dieRefs: Int32Array;
  dieNpuIndexes: Int32Array;
  /** Its NPUs' indexes, ascending. */
  npuIndexes: Int32Array;
}

export interface TargetIndex {
  revision: number;
  superPods: Map<string, number>;
  servers: Map<string, ServerEntry>;
  serversByRef: Map<number, ServerEntry>;
  /** By host IP, for device-info ConfigMaps named after a node that is not the server id. */
  serversByHost: Map<string, ServerEntry>;
}

/** The server's die of `deviceId` (its row id and NPU index), if it has one. */
export function dieOf(server: ServerEntry, deviceId: number): { ref: number; npuIndex: number } | undefined {
  const at = server.deviceIds.indexOf(deviceId);
  return at < 0 ? undefined : { ref: server.dieRefs[at]!, npuIndex: server.dieNpuIndexes[at]! };
}

export const hasNpu = (server: ServerEntry, npuIndex: number): boolean => server.npuIndexes.includes(npuIndex);

/** The device id of the server's die with row id `ref`: the timeline names each event's die by it. */
export function deviceIdOfRef(server: ServerEntry, ref: number): number | null {
  const at = server.dieRefs.indexOf(ref);
  return at < 0 ? null : server.deviceIds[at]!;
}

/** By cluster id; an entry is used while the cluster's inventory revision is the one it was built from. */
const indexCache = new Map<number, TargetIndex>();

/** A comma-separated list of integers (string_agg's answer) as a column. */
const column = (text: string | null) => (text ? Int32Array.from(text.split(","), Number) : new Int32Array(0));

export async function loadTargetIndex(pool: pg.Pool | pg.PoolClient, cluster: ClusterHeader): Promise<TargetIndex> {
  const cached = indexCache.get(cluster.id);
  if (cached && cached.revision === cluster.inventoryRevision) return cached;
  // One row per server, its dies and NPUs aggregated into text (one string a column): half a million rows through
  // the driver cost more than the aggregation.
  const [pods, servers] = await Promise.all([
    pool.query<{ id: number; super_pod_id: string }>("select id, super_pod_id from super_pods where cluster_id = $1", [cluster.id]),
    pool.query<{ id: number; server_id: string; super_pod_ref: number | null; host_ip: string | null; device_ids: string | null; die_refs: string | null; die_npus: string | null; npus: string | null }>(
      `select s.id, s.server_id, s.super_pod_ref, host(s.host_ip) as host_ip, d.device_ids, d.die_refs, d.die_npus,
         (select string_agg(n.npu_index::text, ',' order by n.npu_index) from npus n where n.server_ref = s.id) as npus
       from servers s left join lateral (
         select string_agg(d.device_id::text, ',' order by d.device_id) as device_ids, string_agg(d.id::text, ',' order by d.device_id) as die_refs,
           string_agg(n.npu_index::text, ',' order by d.device_id) as die_npus
         from devices d join npus n on n.id = d.npu_ref where d.server_ref = s.id
       ) d on true
       where s.cluster_id = $1 order by s.position, s.id`,
      [cluster.id],
    ),
  ]);
  const podById = new Map(pods.rows.map((p) => [p.id, p.super_pod_id]));
  const index: TargetIndex = {
    revision: cluster.inventoryRevision,
    superPods: new Map(pods.rows.map((p) => [p.super_pod_id, p.id])),
    servers: new Map(),
    serversByRef: new Map(),
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
      deviceIds: column(s.device_ids),
      dieRefs: column(s.die_refs),
      dieNpuIndexes: column(s.die_npus),
      npuIndexes: column(s.npus),
    };
    index.servers.set(s.server_id, entry);
    index.serversByRef.set(s.id, entry);
    if (s.host_ip) index.serversByHost.set(s.host_ip, entry);
  }
  indexCache.set(cluster.id, index);
  return index;
}
