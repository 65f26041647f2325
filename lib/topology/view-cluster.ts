import { parameterPlaneKey } from "@/lib/fabric/derive";
import { linkKinds } from "@/lib/inventory/vocabulary";
import type { TopologyIndex } from "./inventory-index";
import { AGGREGATE_GEOMETRY, layoutCellGrid } from "./layout";
import { layoutClusterPods, layoutParameterPlane, layoutPlainServers } from "./layout-cluster";
import type { TopologyLink, TopologyNode, TopologyView } from "./model";
import { parameterPlaneNode, podNode, round, serverNode, type ParameterPlane, type ViewFabric } from "./nodes";
import { CLUSTER_SERVER_CELLS_MAX } from "./racks";
import { rowIndex } from "./rows";
import { aggregateRacks, racksOf } from "./view-racks";
import { aggregateRows } from "./view-rows";
import { clusterCounts, clusterCrumb, forEachLink, header, PairCounter } from "./view-parts";

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

/** The cluster: its super pods (each with its servers, or one aggregate each) or plain servers, and the links between them. */
export function clusterView(index: TopologyIndex, fabric: ViewFabric): TopologyView {
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
