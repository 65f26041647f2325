import { parameterPlaneKey } from "@/lib/fabric/derive";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { IndexedServer, TopologyIndex } from "./inventory-index";
import { layoutServerWithFabric } from "./layout-server";
import type { TopologyLink, TopologyNode, TopologyView } from "./model";
import { drawNeighbourhood, expandNeighbourhood, NEIGHBOURHOOD_MAX_DIES } from "./neighbourhood";
import { dieNode, npuNode, parameterPlaneNode, planeNode, round, serverNode, switchNode, type ViewFabric } from "./nodes";
import { crumbsFor, forEachLink, header, PairCounter, TopologyNotFoundError } from "./view-parts";

/** A server view expanded along links: `hops` (0: the server alone) along `kinds`, from one of its dies or all. */
export interface ViewExpansion {
  hops: number;
  kinds: readonly LinkKind[];
  from: string | null;
}

/**
 * A server: its NPUs and dies, and below them the fabric its dies' traffic takes (when the cluster has one): every
 * node chip k above the bus plane k it uplinks to (every NPU links to every chip), then the parameter plane. With an
 * expansion, the server (or one of its dies) and its neighbourhood instead.
 */
export function serverView(index: TopologyIndex, server: IndexedServer, fabric: ViewFabric, expansion: ViewExpansion | undefined): TopologyView {
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
