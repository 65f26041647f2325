import type pg from "pg";
import type { ClusterHeader } from "@/lib/topology/inventory-index";

/*
 * Inventory lookup: super pod id → ref, server id → refs, (server, device id) → die. Cached per inventory revision.
 * The index holds the servers; a server's dies and NPUs are read when a request first needs them (loadServerDies)
 * and kept on its entry as columns. Reading every die up front took 1.9 s on the first timeline request at 524,288
 * dies and 5 s at 1,048,576 (the read alone 1.3 s in PostgreSQL), and held an object and a map key per die
 * (scripts/bench/scale.ts); filtering the timeline by a server scanned every die's key.
 */

interface ServerDies {
  /** The server's dies in device id order: each one's device id, row id and NPU index. */
  deviceIds: Int32Array;
  dieRefs: Int32Array;
  dieNpuIndexes: Int32Array;
  /** Its NPUs' indexes, ascending. */
  npuIndexes: Int32Array;
}

interface ServerEntry {
  ref: number;
  serverId: string;
  superPodRef: number | null;
  superPodId: string | null;
  hostIp: string | null;
  /** Index of the server inside its super pod (A3 ServerIndex), in inventory order. */
  podIndex: number;
  /** Set by loadServerDies. */
  dies?: ServerDies;
}

export interface TargetIndex {
  revision: number;
  superPods: Map<string, number>;
  servers: Map<string, ServerEntry>;
  serversByRef: Map<number, ServerEntry>;
  /** By host IP, for device-info ConfigMaps named after a node that is not the server id. */
  serversByHost: Map<string, ServerEntry>;
}

function diesOf(server: ServerEntry): ServerDies {
  if (!server.dies) throw new Error(`the dies of ${server.serverId} were not loaded (loadServerDies)`);
  return server.dies;
}

/** The server's die of `deviceId` (its row id and NPU index), if it has one. Its dies must be loaded. */
export function dieOf(server: ServerEntry, deviceId: number): { ref: number; npuIndex: number } | undefined {
  const dies = diesOf(server);
  const at = dies.deviceIds.indexOf(deviceId);
  return at < 0 ? undefined : { ref: dies.dieRefs[at]!, npuIndex: dies.dieNpuIndexes[at]! };
}

export const hasNpu = (server: ServerEntry, npuIndex: number): boolean => diesOf(server).npuIndexes.includes(npuIndex);

/** What the inventory knows of a server, for naming the targets inside it (lib/faults/target-filter.ts). */
export function serverTargets(server: ServerEntry): { npuIndexes: number[]; deviceIds: number[] } {
  const dies = diesOf(server);
  return { npuIndexes: [...dies.npuIndexes], deviceIds: [...dies.deviceIds] };
}

/** Reads the dies and NPUs of the given servers that are not loaded yet (one query for them all). */
export async function loadServerDies(pool: pg.Pool | pg.PoolClient, servers: Iterable<ServerEntry | undefined>): Promise<void> {
  const wanted = [...new Set(servers)].filter((server): server is ServerEntry => server !== undefined && server.dies === undefined);
  if (wanted.length === 0) return;
  const refs = wanted.map((server) => server.ref);
  const [dies, npus] = await Promise.all([
    pool.query<{ server_ref: number; id: number; device_id: number; npu_index: number }>(
      `select d.server_ref, d.id, d.device_id, n.npu_index from devices d join npus n on n.id = d.npu_ref
       where d.server_ref = any($1::int[]) order by d.server_ref, d.device_id`,
      [refs],
    ),
    pool.query<{ server_ref: number; npu_index: number }>("select server_ref, npu_index from npus where server_ref = any($1::int[]) order by server_ref, npu_index", [refs]),
  ]);
  const byServer = <Row extends { server_ref: number }>(rows: Row[]) => {
    const grouped = new Map<number, Row[]>();
    for (const row of rows) {
      const list = grouped.get(row.server_ref);
      if (list) list.push(row);
      else grouped.set(row.server_ref, [row]);
    }
    return grouped;
  };
  const diesByRef = byServer(dies.rows);
  const npusByRef = byServer(npus.rows);
  for (const server of wanted) {
    const rows = diesByRef.get(server.ref) ?? [];
    server.dies = {
      deviceIds: Int32Array.from(rows, (row) => row.device_id),
      dieRefs: Int32Array.from(rows, (row) => row.id),
      dieNpuIndexes: Int32Array.from(rows, (row) => row.npu_index),
      npuIndexes: Int32Array.from(npusByRef.get(server.ref) ?? [], (row) => row.npu_index),
    };
  }
}

/** By cluster id; an entry is used while the cluster's inventory revision is the one it was built from. */
const indexCache = new Map<number, TargetIndex>();

export async function loadTargetIndex(pool: pg.Pool | pg.PoolClient, cluster: ClusterHeader): Promise<TargetIndex> {
  const cached = indexCache.get(cluster.id);
  if (cached && cached.revision === cluster.inventoryRevision) return cached;
  const [pods, servers] = await Promise.all([
    pool.query<{ id: number; super_pod_id: string }>("select id, super_pod_id from super_pods where cluster_id = $1", [cluster.id]),
    pool.query<{ id: number; server_id: string; super_pod_ref: number | null; host_ip: string | null }>(
      "select id, server_id, super_pod_ref, host(host_ip) as host_ip from servers where cluster_id = $1 order by position, id",
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
    };
    index.servers.set(s.server_id, entry);
    index.serversByRef.set(s.id, entry);
    if (s.host_ip) index.serversByHost.set(s.host_ip, entry);
  }
  indexCache.set(cluster.id, index);
  return index;
}
