import type { IndexedPod, TopologyIndex } from "./inventory-index";
import { AGGREGATE_GEOMETRY, layoutCellGrid } from "./layout";
import { planesBelow } from "./layout-pod";
import type { TopologyNode, TopologyView } from "./model";
import { planeNode, round, serverNode, type PodBusPlane } from "./nodes";
import { aggregateRacks, detailedServers, racksOf } from "./view-racks";
import { crumbsFor, forEachLink, header, PairCounter } from "./view-parts";

/**
 * Past these sizes a view draws aggregates instead of every cell (issue 21: a SuperCluster of 64 super pods × 8,192
 * NPUs): the cluster view draws each super pod as one cell once the cluster has more servers than
 * CLUSTER_SERVER_CELLS_MAX (the 16,384-die cluster's 1,024 servers are still drawn one by one; plain servers past it
 * are drawn by rack, and by row of racks past one row's worth of racks: lib/topology/rows.ts), a super pod view draws
 * its racks once it has more servers than POD_SERVERS_BY_RACK (lib/topology/racks.ts), else each server as one cell once the pod has more dies than this (the demo's pods have
 * 768). An aggregate shows its counts and its dies' health as a distribution; drilling in opens its own view.
 */
export const POD_DIES_MAX = 1024;

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
export function superPodView(index: TopologyIndex, pod: IndexedPod, planes: readonly PodBusPlane[]): TopologyView {
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
