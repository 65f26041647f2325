import { DomainError } from "@/lib/errors";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { IndexedDie, IndexedPod, IndexedServer, TopologyIndex } from "./inventory-index";
import { parameterPlaneKey } from "@/lib/fabric/derive";
import { layoutClusterPods, layoutParameterPlane, layoutPlainServers, layoutServerWithFabric, layoutSuperPodWithPlanes } from "./layout";
import type { Crumb, TopologyLevel, TopologyLink, TopologyNode, TopologyView } from "./model";
import {
  dieNode,
  npuNode,
  parameterPlaneNode,
  planeNode,
  podLabel,
  podNode,
  round,
  serverNode,
  switchNode,
  type ParameterPlane,
  type PodBusPlane,
  type ViewFabric,
} from "./nodes";

/** A level/id pair that names nothing in the inventory (the API answers 404 not_found). */
export class TopologyNotFoundError extends DomainError {
  constructor(
    readonly what: "superpod" | "server" | "node",
    readonly id: string,
  ) {
    super("not_found", what === "node" ? `no node ${JSON.stringify(id)} in this cluster` : `no ${what === "superpod" ? "super pod" : "server"} ${JSON.stringify(id)} in this cluster`);
    this.name = "TopologyNotFoundError";
  }
}

/** Counts die-to-die links per (kind, group a, group b), each undirected pair once. */
class PairCounter {
  private readonly counts = new Map<string, TopologyLink>();
  add(kind: LinkKind, a: string, b: string): void {
    const [source, target] = a < b ? [a, b] : [b, a];
    const key = `${kind}\u0000${source}\u0000${target}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { source, target, kind, count: 1 });
  }
  links(): TopologyLink[] {
    return [...this.counts.values()];
  }
}

/** Every die link once (the index keeps each link on both of its dies). */
function forEachLink(index: TopologyIndex, dies: Iterable<IndexedDie>, visit: (a: IndexedDie, b: IndexedDie, kind: LinkKind) => void): void {
  for (const die of dies) {
    for (const link of index.dieLinks.get(die.id) ?? []) visit(die, link.peer, link.kind);
  }
}

function clusterCounts(index: TopologyIndex) {
  return { superPods: index.pods.length, servers: index.servers.length, npus: index.npuCount, dies: index.dieById.size };
}

function header(index: TopologyIndex) {
  return { ...index.cluster };
}

function clusterCrumb(index: TopologyIndex): Crumb {
  return { level: "cluster", id: null, label: index.cluster.name };
}

export function crumbsFor(index: TopologyIndex, server: IndexedServer | null, pod: IndexedPod | null): Crumb[] {
  const path = [clusterCrumb(index)];
  const p = server?.pod ?? pod;
  if (p) path.push({ level: "superpod", id: p.id, label: podLabel(p) });
  if (server) path.push({ level: "server", id: server.id, label: server.id });
  return path;
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
    const layout = layoutClusterPods(index.pods.map((pod) => pod.servers.length));
    bounds = layout.bounds;
    index.pods.forEach((pod, i) => {
      const podLayout = layout.pods[i]!;
      nodes.push(podNode(pod, podLayout.box));
      pod.servers.forEach((server, j) => nodes.push(serverNode(server, podLayout.servers[j]!, pod.id)));
    });
    if (fabric.parameter) {
      const parameter = parameterNodes(index, fabric.parameter, bounds);
      nodes.push(...parameter.nodes);
      bounds = parameter.bounds;
    }
    // Links between super pods, one drawn link per pair of pods; RoCE ones only without a parameter plane to draw.
    forEachLink(index, index.dieById.values(), (a, b, kind) => {
      const pa = a.server.pod?.id;
      const pb = b.server.pod?.id;
      if (fabric.parameter && kind === "roce") return;
      if (pa !== undefined && pb !== undefined && pa !== pb && a.id < b.id) pairs.add(kind, pa, pb);
    });
  } else {
    const layout = layoutPlainServers(index.servers.length);
    bounds = layout.bounds;
    index.servers.forEach((server, i) => nodes.push(serverNode(server, layout.servers[i]!, null)));
    forEachLink(index, index.dieById.values(), (a, b, kind) => {
      if (a.server !== b.server && a.id < b.id) pairs.add(kind, a.server.id, b.server.id);
    });
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

/**
 * A super pod: its servers with their NPUs and dies, and either its bus planes (a cluster with a fabric: one bar per
 * plane, which stands for every server's uplinks into it) or, without a fabric, the inventory's HCCS links between
 * servers, aggregated per pair of servers.
 */
function superPodView(index: TopologyIndex, pod: IndexedPod, planes: readonly PodBusPlane[]): TopologyView {
  const layout = layoutSuperPodWithPlanes(
    pod.servers.map((server) => server.npus.map((npu) => npu.dies.length)),
    planes.length,
  );
  const nodes: TopologyNode[] = [];
  pod.servers.forEach((server, i) => {
    const serverLayout = layout.servers[i]!;
    nodes.push(serverNode(server, serverLayout.box, null));
    server.npus.forEach((npu, j) => {
      const npuLayout = serverLayout.npus[j]!;
      nodes.push(npuNode(server, npu.npuIndex, npu.id, npuLayout.box, npu.dies.length));
      npu.dies.forEach((die, k) => nodes.push(dieNode(die, npuLayout.dies[k]!, npu.id)));
    });
  });
  planes.forEach((plane, i) => nodes.push(planeNode(plane, pod.id, layout.planes[i]!)));
  // Inside the pod: the bus planes when drawn, else the HCCS links between servers; links to other pods are external.
  const pairs = new PairCounter();
  const outside = new PairCounter();
  forEachLink(
    index,
    pod.servers.flatMap((server) => server.dies),
    (a, b, kind) => {
      if (a.server === b.server) return;
      if (b.server.pod === pod) {
        if (a.id < b.id && !(planes.length > 0 && kind === "hccs")) pairs.add(kind, a.server.id, b.server.id);
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
    counts: { superPods: 1, servers: pod.servers.length, npus: pod.servers.reduce((n, s) => n + s.npus.length, 0), dies: pod.dies },
    nodes,
    links: pairs.links(),
    external: outside.links().map((link) => ({ kind: link.kind, peer: link.target, peerKind: "superpod" as const, count: link.count })),
  };
}

/**
 * A server: its NPUs and dies, and below them the fabric its dies' traffic takes (when the cluster has one): every
 * node chip k above the bus plane k it uplinks to (every NPU links to every chip), then the parameter plane.
 */
function serverView(index: TopologyIndex, server: IndexedServer, fabric: ViewFabric): TopologyView {
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
  const outside = new PairCounter();
  forEachLink(index, server.dies, (a, b, kind) => {
    if (b.server === server) {
      if (a.id < b.id) links.push({ source: a.id, target: b.id, kind, count: 1 });
    } else {
      outside.add(kind, "", b.server.id);
    }
  });
  return {
    cluster: header(index),
    level: "server",
    id: server.id,
    path: crumbsFor(index, server, null),
    bounds: { width: round(layout.bounds.width), height: round(layout.bounds.height) },
    counts: { superPods: server.pod ? 1 : 0, servers: 1, npus: server.npus.length, dies: server.dies.length },
    nodes,
    links,
    external: outside.links().map((link) => ({ kind: link.kind, peer: link.target, peerKind: "server" as const, count: link.count })),
  };
}

/**
 * What one view of the cluster draws. `fabric`: what the stored fabric adds to it (none: the view is drawn from the
 * inventory's links alone: a super pod with its HCCS links, the RoCE links between pods). Throws
 * TopologyNotFoundError for an id the inventory does not have.
 */
export function buildTopologyView(index: TopologyIndex, level: TopologyLevel, id: string | null, fabric: ViewFabric = {}): TopologyView {
  if (level === "cluster") return clusterView(index, fabric);
  if (level === "superpod") {
    const pod = id === null ? undefined : index.podById.get(id);
    if (!pod) throw new TopologyNotFoundError("superpod", id ?? "");
    return superPodView(index, pod, fabric.busPlanes ?? []);
  }
  const server = id === null ? undefined : index.serverById.get(id);
  if (!server) throw new TopologyNotFoundError("server", id ?? "");
  return serverView(index, server, fabric);
}
