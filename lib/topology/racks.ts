import type { IndexedPod, IndexedServer, TopologyIndex } from "./inventory-index";

/**
 * Racks: what a super pod (or a cluster of plain servers) with too many servers to draw is drawn as, one aggregate per
 * rack, each opening to its servers. The inventory of 1.x servers records no rack, so a rack is derived: consecutive
 * servers in inventory order until they hold RACK_NPUS NPUs, the published Atlas 950 SuperPoD compute rack (8,192 NPUs
 * in 128 racks × 64 NPUs; lib/rank-table/generate-a5.ts). In a "2.0" inventory a server is already a rack (its
 * net_layer 0 instance, 64 NPUs): every rack would hold one server, so such a pod keeps its servers as the aggregates.
 */
export const RACK_NPUS = 64;
/**
 * A super pod with more servers than this is drawn by rack (an Atlas 900 A3 SuperPoD has 48 servers; the e2e
 * SuperCluster's pod-0 has 65), and a cluster of plain servers with more than CLUSTER_SERVER_CELLS_MAX (view-cluster.ts).
 */
export const POD_SERVERS_BY_RACK = 64;
/** The cluster view draws each server as a cell up to this many servers (the 16,384-die cluster's 1,024). */
export const CLUSTER_SERVER_CELLS_MAX = 1024;

export interface Rack {
  /** `<super pod id>/rack<k>`, or `rack<k>` among plain servers. */
  id: string;
  index: number;
  pod: IndexedPod | null;
  servers: IndexedServer[];
  npus: number;
  dies: number;
}

interface RackIndex {
  /** Per super pod (null: the plain servers), its racks, when it is drawn by rack. */
  byPod: Map<IndexedPod | null, Rack[]>;
  byId: Map<string, Rack>;
  ofServer: Map<IndexedServer, Rack>;
}

/** Consecutive servers until they hold RACK_NPUS NPUs (a server with as many or more takes a rack of its own). */
export function groupIntoRacks(pod: IndexedPod | null, servers: readonly IndexedServer[]): Rack[] {
  const racks: Rack[] = [];
  let current: Rack | null = null;
  for (const server of servers) {
    if (!current || current.npus + server.npuCount > RACK_NPUS) {
      const index = racks.length;
      current = { id: pod ? `${pod.id}/rack${index}` : `rack${index}`, index, pod, servers: [], npus: 0, dies: 0 };
      racks.push(current);
    }
    current.servers.push(server);
    current.npus += server.npuCount;
    current.dies += server.dieCount;
  }
  return racks;
}

const rackIndexes = new WeakMap<TopologyIndex, RackIndex>();

/**
 * The racks of every super pod (and of the plain servers) drawn by rack, derived once per index (kept per inventory
 * revision).
 */
export function rackIndex(index: TopologyIndex): RackIndex {
  let found = rackIndexes.get(index);
  if (found) return found;
  found = { byPod: new Map(), byId: new Map(), ofServer: new Map() };
  const add = (pod: IndexedPod | null, servers: readonly IndexedServer[]) => {
    const racks = groupIntoRacks(pod, servers);
    // A rack per server (a "2.0" inventory): the servers are the racks already.
    if (racks.length === servers.length) return;
    found!.byPod.set(pod, racks);
    for (const rack of racks) {
      found!.byId.set(rack.id, rack);
      for (const server of rack.servers) found!.ofServer.set(server, rack);
    }
  };
  for (const pod of index.pods) if (pod.servers.length > POD_SERVERS_BY_RACK) add(pod, pod.servers);
  const plain = index.servers.filter((server) => server.pod === null);
  if (index.pods.length === 0 && plain.length > CLUSTER_SERVER_CELLS_MAX) add(null, plain);
  rackIndexes.set(index, found);
  return found;
}

export function rackLabel(rack: Rack): string {
  const first = rack.servers[0]?.id ?? "";
  const last = rack.servers.at(-1)?.id ?? "";
  return `Rack ${rack.index} · ${first === last ? first : `${first} – ${last}`}`;
}

/** The super pod of a rack id (`<pod>/rack<k>`), or null for a rack of plain servers: what the rack view's fabric is read for. */
export function podOfRackId(id: string): string | null {
  const at = id.lastIndexOf("/rack");
  return at > 0 ? id.slice(0, at) : null;
}
