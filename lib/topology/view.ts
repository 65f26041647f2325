import { linkKinds, type LinkKind } from "@/lib/inventory/vocabulary";
import { parameterPlaneKey } from "@/lib/fabric/derive";
import type { IndexedPod, IndexedServer, TopologyIndex } from "./inventory-index";
import { AGGREGATE_GEOMETRY, layoutCellGrid, layoutClusterPods, layoutParameterPlane, layoutPlainServers, layoutServerWithFabric, planesBelow } from "./layout";
import type { TopologyLevel, TopologyLink, TopologyNode, TopologyView } from "./model";
import { drawNeighbourhood, expandNeighbourhood, NEIGHBOURHOOD_MAX_DIES } from "./neighbourhood";
import {
  dieNode,
  npuNode,
  parameterPlaneNode,
  planeNode,
  podNode,
  round,
  serverNode,
  switchNode,
  type ParameterPlane,
  type PodBusPlane,
  type ViewFabric,
} from "./nodes";
import { CLUSTER_SERVER_CELLS_MAX, rackIndex } from "./racks";
import { rowIndex } from "./rows";
import { aggregateRacks, detailedServers, rackView, racksOf } from "./view-racks";
import { aggregateRows, rowView } from "./view-rows";
import { clusterCounts, clusterCrumb, crumbsFor, forEachLink, header, PairCounter, TopologyNotFoundError } from "./view-parts";

export { crumbsFor, TopologyNotFoundError, CLUSTER_SERVER_CELLS_MAX };

/**
 * Past these sizes a view draws aggregates instead of every cell (issue 21: a SuperCluster of 64 super pods × 8,192
 * NPUs): the cluster view draws each super pod as one cell once the cluster has more servers than
 * CLUSTER_SERVER_CELLS_MAX (the 16,384-die cluster's 1,024 servers are still drawn one by one; plain servers past it
 * are drawn by rack, and by row of racks past one row's worth of racks: lib/topology/rows.ts), a super pod view draws
 * its racks once it has more servers than POD_SERVERS_BY_RACK (lib/topology/racks.ts), else each server as one cell once the pod has more dies than this (the demo's pods have
 * 768). An aggregate shows its counts and its dies' health as a distribution; drilling in opens its own view.
 */
export const POD_DIES_MAX = 1024;

/** A server view expanded along links: `hops` (0: the server alone) along `kinds`, from one of its dies or all. */
export interface ViewExpansion {
  hops: number;
  kinds: readonly LinkKind[];
  from: string | null;
}

/**
 * The RoCE parameter plane between super pods, one drawn link per pair of pods and kind, counted once per index (the
 * index is kept per inventory revision): at half a million dies this walks 2.6 million link ends, so it allocates
 * nothing per link (pairs are numbered, not named) and is not walked again when only the health changed.
 */
const podPairsOf = new WeakMap<TopologyIndex, TopologyLink[]>();
function countPodPairs(index: TopologyIndex, pairs: PairCounter, withRoce: boolean): void {
  let links = podPairsOf.get(index);
  if (!links) {
    const podNumber = new Map(index.pods.map((pod, i) => [pod, i]));
    const podOfServer = Int32Array.from(index.servers, (server) => (server.pod ? podNumber.get(server.pod)! : -1));
    const kindNumber = index.linkColumns.kinds.map((kind) => linkKinds.indexOf(kind));
    const { start, peer, kind } = index.linkColumns;
    const podCount = index.pods.length;
    const counts = new Map<number, number>();
    for (const pod of index.pods) {
      const pa = podNumber.get(pod)!;
      for (const server of pod.servers) {
        for (let rank = server.firstRank; rank < server.firstRank + server.dieCount; rank++) {
          for (let at = start[rank]!; at < start[rank + 1]!; at++) {
            const pb = podOfServer[index.serverOfRank(peer[at]!)]!;
            // Each link is kept on both its dies: count it from the lower-numbered pod's end only.
            if (pb < 0 || pb === pa || pa > pb) continue;
            const key = (pa * podCount + pb) * linkKinds.length + kindNumber[kind[at]!]!;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
      }
    }
    links = [...counts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([key, count]) => {
        const kind = linkKinds[key % linkKinds.length]!;
        const pair = Math.floor(key / linkKinds.length);
        const a = index.pods[Math.floor(pair / podCount)]!.id;
        const b = index.pods[pair % podCount]!.id;
        const [source, target] = a < b ? [a, b] : [b, a];
        return { source, target, kind, count };
      });
    podPairsOf.set(index, links);
  }
  for (const link of links) if (withRoce || link.kind !== "roce") pairs.addCounted(link);
}

/**
 * The parameter plane below the super pods, as the stored fabric knows it: leaf/spine when the profile gives the shape
 * (a leaf tier per super pod, assumed, above one spine), else one bar that says its shape is unknown. It replaces
 * the pod-to-pod RoCE lines: the pods do not link to each other, they all attach to this network.
 */
function parameterNodes(index: TopologyIndex, plane: ParameterPlane, bounds: { width: number; height: number }): { nodes: TopologyNode[]; bounds: { width: number; height: number } } {
  const leafSpine = plane.shape === "leaf-spine";
  const layout = layoutParameterPlane(bounds, index.pods.length, leafSpine);
  const nodes = index.pods.flatMap((pod, i) => {
    const box = layout.leaves[i];
    if (!box) return [];
    const servers = pod.servers.length;
    const share = { ...plane, servers, ports: plane.servers > 0 ? Math.round((plane.ports * servers) / plane.servers) : 0 };
    return [parameterPlaneNode(`${parameterPlaneKey}/leaf:${pod.id}`, `Leaf · super pod ${pod.id}`, share, box, pod.id)];
  });
  nodes.push(parameterPlaneNode(leafSpine ? `${parameterPlaneKey}/spine` : parameterPlaneKey, leafSpine ? "Spine" : "Parameter plane", plane, layout.spine));
  return { nodes, bounds: layout.bounds };
}

function clusterView(index: TopologyIndex, fabric: ViewFabric): TopologyView {
  const nodes: TopologyNode[] = [];
  const pairs = new PairCounter();
  const external: TopologyView["external"] = [];
  let bounds: { width: number; height: number };
  if (index.pods.length > 0) {
    if (index.servers.length > CLUSTER_SERVER_CELLS_MAX) {
      const layout = layoutCellGrid(index.pods.length, AGGREGATE_GEOMETRY.pod, AGGREGATE_GEOMETRY.podGap);
      bounds = layout.bounds;
      index.pods.forEach((pod, i) => nodes.push({ ...podNode(pod, layout.boxes[i]!), aggregated: true }));
    } else {
      const layout = layoutClusterPods(index.pods.map((pod) => pod.servers.length));
      bounds = layout.bounds;
      index.pods.forEach((pod, i) => {
        const podLayout = layout.pods[i]!;
        nodes.push(podNode(pod, podLayout.box));
        pod.servers.forEach((server, j) => nodes.push(serverNode(server, podLayout.servers[j]!, pod.id)));
      });
    }
    // The pods attach to the parameter plane when the fabric knows it, instead of RoCE lines between them.
    if (fabric.parameter) {
      const parameter = parameterNodes(index, fabric.parameter, bounds);
      nodes.push(...parameter.nodes);
      bounds = parameter.bounds;
    }
    countPodPairs(index, pairs, !fabric.parameter);
  } else {
    // Plain servers (AI Server mode): one cell each, or by rack when there are too many, or by row of racks when
    // those are too many. With a stored parameter plane they attach to it, as super pods do, instead of RoCE lines
    // between them (issue 19).
    const racks = racksOf(index, null);
    const { rows } = rowIndex(index);
    const roce = !fabric.parameter;
    if (rows.length > 0) {
      const drawn = aggregateRows(index, rows, nodes, roce);
      bounds = drawn.layout.bounds;
      for (const link of drawn.links) pairs.addCounted(link);
    } else if (racks) {
      const drawn = aggregateRacks(index, racks, 0, nodes, (kind) => kind === "roce" && !roce);
      bounds = drawn.layout.bounds;
      for (const link of drawn.links) pairs.addCounted(link);
    } else {
      const layout = layoutPlainServers(index.servers.length);
      bounds = layout.bounds;
      index.servers.forEach((server, i) => nodes.push(serverNode(server, layout.servers[i]!, null)));
      const dies = index.servers.flatMap((server) => server.npus.flatMap((npu) => npu.dies));
      forEachLink(index, dies, (a, b, kind) => {
        if (a.server !== b.server && a.id < b.id && (roce || kind !== "roce")) pairs.add(kind, a.server.id, b.server.id);
      });
    }
    if (fabric.parameter) {
      const layout = layoutParameterPlane(bounds, 0, false);
      nodes.push(parameterPlaneNode(parameterPlaneKey, "Parameter plane", fabric.parameter, layout.spine));
      bounds = layout.bounds;
    }
  }
  return {
    cluster: header(index),
    level: "cluster",
    id: null,
    path: [clusterCrumb(index)],
    bounds: { width: round(bounds.width), height: round(bounds.height) },
    counts: clusterCounts(index),
    nodes,
    links: pairs.links(),
    external,
  };
}

/** A super pod with too many dies to draw: each server one aggregate cell (into `nodes`), and the planes' places. */
function aggregatePodServers(pod: IndexedPod, planes: number, nodes: TopologyNode[]) {
  const grid = layoutCellGrid(pod.servers.length, AGGREGATE_GEOMETRY.server, AGGREGATE_GEOMETRY.serverGap);
  pod.servers.forEach((server, i) => nodes.push({ ...serverNode(server, grid.boxes[i]!, null), aggregated: true }));
  return planesBelow(grid.bounds, planes);
}

/**
 * A super pod: its servers with their NPUs and dies, and either its bus planes (a cluster with a fabric: one bar per
 * plane, which stands for every server's uplinks into it) or, without a fabric, the inventory's HCCS links between
 * servers, aggregated per pair of servers.
 */
function superPodView(index: TopologyIndex, pod: IndexedPod, planes: readonly PodBusPlane[]): TopologyView {
  const nodes: TopologyNode[] = [];
  const racks = racksOf(index, pod);
  const drawnByRack = racks ? aggregateRacks(index, racks, planes.length, nodes, (kind) => planes.length > 0 && kind === "hccs") : null;
  const layout = drawnByRack?.layout ?? (pod.dies > POD_DIES_MAX ? aggregatePodServers(pod, planes.length, nodes) : detailedServers(pod.servers, planes.length, nodes));
  planes.forEach((plane, i) => nodes.push(planeNode(plane, pod.id, layout.planes[i]!)));
  // Inside the pod: the bus planes when drawn, else the HCCS links between servers (or racks); links to other pods are external.
  const pairs = new PairCounter();
  for (const link of drawnByRack?.links ?? []) pairs.addCounted(link);
  const outside = new PairCounter();
  forEachLink(
    index,
    pod.servers.flatMap((server) => server.dies),
    (a, b, kind) => {
      if (a.server === b.server) return;
      if (b.server.pod === pod) {
        if (!drawnByRack && a.id < b.id && !(planes.length > 0 && kind === "hccs")) pairs.add(kind, a.server.id, b.server.id);
      } else {
        outside.add(kind, "", b.server.pod?.id ?? b.server.id);
      }
    },
  );
  return {
    cluster: header(index),
    level: "superpod",
    id: pod.id,
    path: crumbsFor(index, null, pod),
    bounds: { width: round(layout.bounds.width), height: round(layout.bounds.height) },
    counts: { superPods: 1, servers: pod.servers.length, npus: pod.servers.reduce((n, s) => n + s.npuCount, 0), dies: pod.dies },
    nodes,
    links: pairs.links(),
    external: outside.links().map((link) => ({ kind: link.kind, peer: link.target, peerKind: "superpod" as const, count: link.count })),
  };
}

/**
 * A server: its NPUs and dies, and below them the fabric its dies' traffic takes (when the cluster has one): every
 * node chip k above the bus plane k it uplinks to (every NPU links to every chip), then the parameter plane. With an
 * expansion, the server (or one of its dies) and its neighbourhood instead.
 */
function serverView(index: TopologyIndex, server: IndexedServer, fabric: ViewFabric, expansion: ViewExpansion | undefined): TopologyView {
  const outside = new PairCounter();
  forEachLink(index, server.dies, (a, b, kind) => {
    if (b.server !== server) outside.add(kind, "", b.server.id);
  });
  const base = {
    cluster: header(index),
    level: "server" as const,
    id: server.id,
    path: crumbsFor(index, server, null),
    counts: { superPods: server.pod ? 1 : 0, servers: 1, npus: server.npus.length, dies: server.dies.length },
    external: outside.links().map((link) => ({ kind: link.kind, peer: link.target, peerKind: "server" as const, count: link.count })),
  };
  if (expansion && expansion.hops > 0) return { ...base, ...neighbourhoodOf(index, server, expansion) };
  const chips = [...(fabric.nodeChips ?? [])].sort((a, b) => a.chipId - b.chipId);
  const planes = new Map((fabric.busPlanes ?? []).map((plane) => [plane.key, plane]));
  const layout = layoutServerWithFabric(
    server.npus.map((npu) => npu.dies.length),
    chips.length,
    Boolean(fabric.parameter),
  );
  const podId = server.pod?.id ?? null;
  const nodes: TopologyNode[] = [serverNode(server, layout.box, podId)];
  server.npus.forEach((npu, j) => {
    const npuLayout = layout.npus[j]!;
    nodes.push(npuNode(server, npu.npuIndex, npu.id, npuLayout.box, npu.dies.length));
    npu.dies.forEach((die, k) => nodes.push(dieNode(die, npuLayout.dies[k]!, npu.id)));
  });
  chips.forEach((chip, i) => {
    nodes.push(switchNode(chip, server.id, podId, layout.chips[i]!));
    const plane = planes.get(chip.planeKey);
    if (plane && podId !== null) nodes.push(planeNode(plane, podId, layout.planes[i]!));
  });
  if (fabric.parameter && layout.parameter) {
    const ports = server.npus.length;
    nodes.push(parameterPlaneNode(parameterPlaneKey, "Parameter plane", { ...fabric.parameter, servers: 1, ports }, layout.parameter));
  }
  const links: TopologyLink[] = [];
  forEachLink(index, server.dies, (a, b, kind) => {
    if (b.server === server && a.id < b.id) links.push({ source: a.id, target: b.id, kind, count: 1 });
  });
  return { ...base, bounds: { width: round(layout.bounds.width), height: round(layout.bounds.height) }, nodes, links };
}

/** A server (or one of its dies) and what lies `hops` away along the chosen kinds, bounded (lib/topology/neighbourhood.ts). */
function neighbourhoodOf(index: TopologyIndex, server: IndexedServer, expansion: ViewExpansion): Pick<TopologyView, "nodes" | "links" | "bounds" | "neighbourhood"> {
  const from = expansion.from === null ? null : index.dieById.get(expansion.from);
  if (from === undefined || (from !== null && from.server !== server)) throw new TopologyNotFoundError("node", expansion.from ?? "");
  const kinds = [...new Set(expansion.kinds)];
  const found = expandNeighbourhood(index, from ? [from] : server.dies, { hops: expansion.hops, kinds });
  const drawing = drawNeighbourhood(server, found, kinds, index);
  return {
    nodes: drawing.nodes,
    links: drawing.links,
    bounds: drawing.bounds,
    neighbourhood: {
      from: from?.id ?? null,
      hops: expansion.hops,
      kinds,
      reached: found.reached,
      reachedCapped: found.reachedCapped,
      drawn: found.dies.length,
      servers: drawing.servers,
      omitted: found.omitted,
      cap: NEIGHBOURHOOD_MAX_DIES,
    },
  };
}

/**
 * What one view of the cluster draws. `fabric`: what the stored fabric adds to it (none: the view is drawn from the
 * inventory's links alone: a super pod with its HCCS links, the RoCE links between pods). `expansion`: a server
 * view's neighbourhood. Throws TopologyNotFoundError for an id the inventory does not have.
 */
export function buildTopologyView(index: TopologyIndex, level: TopologyLevel, id: string | null, fabric: ViewFabric = {}, expansion?: ViewExpansion): TopologyView {
  if (level === "cluster") return clusterView(index, fabric);
  if (level === "superpod") {
    const pod = id === null ? undefined : index.podById.get(id);
    if (!pod) throw new TopologyNotFoundError("superpod", id ?? "");
    return superPodView(index, pod, fabric.busPlanes ?? []);
  }
  if (level === "row") {
    const row = id === null ? undefined : rowIndex(index).byId.get(id);
    if (!row) throw new TopologyNotFoundError("row", id ?? "");
    return rowView(index, row);
  }
  if (level === "rack") {
    const rack = id === null ? undefined : rackIndex(index).byId.get(id);
    if (!rack) throw new TopologyNotFoundError("rack", id ?? "");
    return rackView(index, rack, fabric.busPlanes ?? []);
  }
  const server = id === null ? undefined : index.serverById.get(id);
  if (!server) throw new TopologyNotFoundError("server", id ?? "");
  return serverView(index, server, fabric, expansion);
}
