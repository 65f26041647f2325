import type { ClusterSpec, DieSpec, ServerSpec } from "@/lib/inventory/model";
import type { ClusterMode, LinkKind } from "@/lib/inventory/vocabulary";

/**
 * The inventory of one cluster, indexed for the topology views, search and details. Built once per inventory
 * revision (the API caches it), then every view is a cheap slice of it.
 *
 * Node ids: a super pod is its `super_pod_id`, a server its `server_id`, an NPU `<server_id>/npu<index>` and a die
 * `<server_id>/d<device_id>`.
 */
export interface ClusterHeader {
  id: number;
  slug: string;
  name: string;
  mode: ClusterMode;
  inventoryRevision: number;
}

export interface IndexedDie {
  id: string;
  spec: DieSpec;
  server: IndexedServer;
  npuIndex: number;
  /** Rank in a table built from the inventory: servers in inventory order, dies in device order. */
  rank: number;
}

export interface IndexedNpu {
  id: string;
  npuIndex: number;
  dies: IndexedDie[];
}

export interface IndexedServer {
  id: string;
  spec: ServerSpec;
  pod: IndexedPod | null;
  npus: IndexedNpu[];
  dies: IndexedDie[];
}

export interface IndexedPod {
  id: string;
  servers: IndexedServer[];
  dies: number;
}

export interface DieLink {
  kind: LinkKind;
  peer: IndexedDie;
}

export interface TopologyIndex {
  cluster: ClusterHeader;
  pods: IndexedPod[];
  servers: IndexedServer[];
  podById: Map<string, IndexedPod>;
  serverById: Map<string, IndexedServer>;
  dieById: Map<string, IndexedDie>;
  dieByRank: IndexedDie[];
  dieLinks: Map<string, DieLink[]>;
  npuCount: number;
}

export function npuNodeId(serverId: string, npuIndex: number): string {
  return `${serverId}/npu${npuIndex}`;
}

export function dieNodeId(serverId: string, deviceId: number): string {
  return `${serverId}/d${deviceId}`;
}

export function buildTopologyIndex(cluster: ClusterHeader, spec: Pick<ClusterSpec, "superPodIds" | "servers" | "links">): TopologyIndex {
  const pods: IndexedPod[] = spec.superPodIds.map((id) => ({ id, servers: [], dies: 0 }));
  const podById = new Map(pods.map((pod) => [pod.id, pod]));
  const servers: IndexedServer[] = [];
  const serverById = new Map<string, IndexedServer>();
  const dieById = new Map<string, IndexedDie>();
  const dieByRank: IndexedDie[] = [];
  let npuCount = 0;

  for (const serverSpec of spec.servers) {
    const pod = serverSpec.superPodId === null ? null : (podById.get(serverSpec.superPodId) ?? null);
    const server: IndexedServer = { id: serverSpec.serverId, spec: serverSpec, pod, npus: [], dies: [] };
    const npus = [...serverSpec.npus].sort((a, b) => a.npuIndex - b.npuIndex);
    for (const npuSpec of npus) {
      npuCount++;
      const npu: IndexedNpu = { id: npuNodeId(server.id, npuSpec.npuIndex), npuIndex: npuSpec.npuIndex, dies: [] };
      for (const dieSpec of [...npuSpec.dies].sort((a, b) => a.dieIndex - b.dieIndex)) {
        const die: IndexedDie = { id: dieNodeId(server.id, dieSpec.deviceId), spec: dieSpec, server, npuIndex: npu.npuIndex, rank: 0 };
        npu.dies.push(die);
        server.dies.push(die);
        dieById.set(die.id, die);
      }
      server.npus.push(npu);
    }
    // Rank tables list a server's devices in device_id order.
    server.dies.sort((a, b) => a.spec.deviceId - b.spec.deviceId);
    for (const die of server.dies) {
      die.rank = dieByRank.length;
      dieByRank.push(die);
    }
    if (pod) {
      pod.servers.push(server);
      pod.dies += server.dies.length;
    }
    servers.push(server);
    serverById.set(server.id, server);
  }

  const dieLinks = new Map<string, DieLink[]>();
  const add = (from: IndexedDie, link: DieLink) => {
    const list = dieLinks.get(from.id);
    if (list) list.push(link);
    else dieLinks.set(from.id, [link]);
  };
  for (const link of spec.links) {
    const a = dieById.get(dieNodeId(link.source.serverId, link.source.deviceId));
    const b = dieById.get(dieNodeId(link.target.serverId, link.target.deviceId));
    if (!a || !b) continue;
    add(a, { kind: link.kind, peer: b });
    add(b, { kind: link.kind, peer: a });
  }
  return { cluster, pods, servers, podById, serverById, dieById, dieByRank, dieLinks, npuCount };
}
