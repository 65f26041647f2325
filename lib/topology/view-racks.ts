import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { IndexedPod, IndexedServer, TopologyIndex } from "./inventory-index";
import { AGGREGATE_GEOMETRY, layoutCellGrid, type Box } from "./layout";
import { layoutSuperPodWithPlanes, planesBelow } from "./layout-pod";
import type { TopologyNode, TopologyView } from "./model";
import { dieNode, groupNode, npuNode, planeNode, round, serverNode, type PodBusPlane } from "./nodes";
import { rackIndex, rackLabel, type Rack } from "./racks";
import { crumbsFor, forEachLink, linksBetweenGroups, header, PairCounter } from "./view-parts";

/** A rack drawn as one aggregate: its counts (its health is added with the view's, lib/topology/health-overlay.ts). */
export function rackNode(rack: Rack, box: Box): TopologyNode {
  return groupNode("rack", rack.id, rackLabel(rack), { servers: rack.servers.length, npus: rack.npus, dies: rack.dies }, rack.pod?.id ?? null, box);
}

/** Servers drawn with their NPUs and dies (into `nodes`), and the planes' places below them. */
export function detailedServers(servers: readonly IndexedServer[], planes: number, nodes: TopologyNode[]) {
  const layout = layoutSuperPodWithPlanes(
    servers.map((server) => server.npus.map((npu) => npu.dies.length)),
    planes,
  );
  servers.forEach((server, i) => {
    const serverLayout = layout.servers[i]!;
    nodes.push(serverNode(server, serverLayout.box, null));
    server.npus.forEach((npu, j) => {
      const npuLayout = serverLayout.npus[j]!;
      nodes.push(npuNode(server, npu.npuIndex, npu.id, npuLayout.box, npu.dies.length));
      npu.dies.forEach((die, k) => nodes.push(dieNode(die, npuLayout.dies[k]!, npu.id)));
    });
  });
  return layout;
}

/**
 * Racks as aggregates (into `nodes`), one grid cell each, with the links between them counted per pair of racks and
 * kind (`skip`: kinds drawn otherwise, the HCCS plane when the pod's bus planes are drawn); `planes` bars below.
 */
export function aggregateRacks(index: TopologyIndex, racks: readonly Rack[], planes: number, nodes: TopologyNode[], skip: (kind: LinkKind) => boolean) {
  const grid = layoutCellGrid(racks.length, AGGREGATE_GEOMETRY.server, AGGREGATE_GEOMETRY.serverGap);
  racks.forEach((rack, i) => nodes.push(rackNode(rack, grid.boxes[i]!)));
  return { layout: planesBelow(grid.bounds, planes), links: linksBetweenGroups(index, racks, skip) };
}

/**
 * A rack: its servers with their NPUs and dies, the links between them, and the pod's bus planes (one bar per plane,
 * as in the super pod view); links that leave the rack are external, per peer rack (or super pod).
 */
export function rackView(index: TopologyIndex, rack: Rack, planes: readonly PodBusPlane[]): TopologyView {
  const nodes: TopologyNode[] = [];
  const layout = detailedServers(rack.servers, planes.length, nodes);
  if (rack.pod) planes.forEach((plane, i) => nodes.push(planeNode(plane, rack.pod!.id, layout.planes[i]!)));
  const { ofServer } = rackIndex(index);
  const pairs = new PairCounter();
  const outside = new PairCounter();
  const peerKind = new Map<string, "rack" | "superpod" | "server">();
  forEachLink(
    index,
    rack.servers.flatMap((server) => server.dies),
    (a, b, kind) => {
      if (a.server === b.server) return;
      const other = ofServer.get(b.server);
      if (other === rack) {
        if (a.id < b.id && !(planes.length > 0 && kind === "hccs")) pairs.add(kind, a.server.id, b.server.id);
        return;
      }
      const peer = other?.id ?? b.server.pod?.id ?? b.server.id;
      peerKind.set(peer, other ? "rack" : b.server.pod ? "superpod" : "server");
      outside.add(kind, "", peer);
    },
  );
  return {
    cluster: header(index),
    level: "rack",
    id: rack.id,
    path: crumbsFor(index, null, rack.pod, rack.id),
    bounds: { width: round(layout.bounds.width), height: round(layout.bounds.height) },
    counts: { superPods: rack.pod ? 1 : 0, servers: rack.servers.length, npus: rack.npus, dies: rack.dies },
    nodes,
    links: pairs.links(),
    external: outside.links().map((link) => ({ kind: link.kind, peer: link.target, peerKind: peerKind.get(link.target) ?? "server", count: link.count })),
  };
}

/** The racks of a super pod (null: of the plain servers) when it is drawn by rack. */
export function racksOf(index: TopologyIndex, pod: IndexedPod | null): Rack[] | undefined {
  return rackIndex(index).byPod.get(pod);
}
