import { healthOf, type OpenFault } from "@/lib/faults/health";
import { faultLevelInfo, type HealthTone } from "@/lib/faults/levels";
import { npuNodeId, type IndexedDie, type TopologyIndex } from "./inventory-index";
import type { HealthCounts, TopologyNode, TopologyView } from "./model";
import { rackIndex } from "./racks";
import { rowOfRack } from "./rows";

/**
 * The fault health overlay of a view at any scale: every node's worst state (lib/faults/health.ts `healthOf`, the
 * same rule everywhere) and, for the nodes that hold dies (super pods, rows, racks, servers, NPUs) and for the view, how many of
 * their dies are in each state. The overlay costs the faults times the dies they cover, never the cluster's size:
 * only dies an open fault covers are looked at, every other die of a scope is healthy (or unknown, with no fault data).
 */
const rank: Record<HealthTone, number> = { healthy: 0, unknown: 1, degraded: 2, faulty: 3 };
const worse = (a: HealthTone | undefined, b: HealthTone): HealthTone => (a === undefined || rank[b] > rank[a] ? b : a);

export const emptyHealthCounts = (): HealthCounts => ({ healthy: 0, degraded: 0, faulty: 0, unknown: 0 });

/** Adds `b` into `a` (the sum of parts). */
export function addHealthCounts(a: HealthCounts, b: HealthCounts): HealthCounts {
  a.healthy += b.healthy;
  a.degraded += b.degraded;
  a.faulty += b.faulty;
  a.unknown += b.unknown;
  return a;
}

/** The worst state present in a distribution (an aggregate's mark): faulty over degraded over unknown over healthy. */
export function worstOf(counts: HealthCounts): HealthTone {
  if (counts.faulty > 0) return "faulty";
  if (counts.degraded > 0) return "degraded";
  if (counts.unknown > 0) return "unknown";
  return "healthy";
}

export interface HealthOverlay {
  /** Whether fault data was ever collected for the cluster: without it every state is unknown, never healthy. */
  collected: boolean;
  /** A die's state. */
  die(die: IndexedDie): HealthTone;
  /** The dies an open fault covers, with their state (none without fault data): every other die is healthy. */
  covered: ReadonlyMap<IndexedDie, HealthTone>;
  /** A node's worst state (healthOf over only the faults that can cover it). */
  node(node: TopologyNode): HealthTone;
  /** The distribution of `total` dies of a scope (a pod, server or NPU id; "" for the whole cluster). */
  counts(scope: { kind: "cluster" | "superpod" | "row" | "rack" | "server" | "npu"; id: string }, total: number): HealthCounts;
}

/** `faults` null: no fault data collected for the cluster. */
export function healthOverlay(index: TopologyIndex, faults: readonly OpenFault[] | null): HealthOverlay {
  const byServer = new Map<string, OpenFault[]>();
  const byPod = new Map<string, OpenFault[]>();
  const byPlane = new Map<string, OpenFault[]>();
  const push = (map: Map<string, OpenFault[]>, key: string, fault: OpenFault) => {
    const list = map.get(key);
    if (list) list.push(fault);
    else map.set(key, [fault]);
  };
  // The dies an open fault covers (healthOf's rule for a die: its device, else its NPU, else its whole server).
  const dieTone = new Map<IndexedDie, HealthTone>();
  for (const fault of faults ?? []) {
    push(byServer, fault.serverId, fault);
    if (fault.superPodId !== null) push(byPod, fault.superPodId, fault);
    if (fault.planeKey !== null) push(byPlane, fault.planeKey, fault);
    const server = index.serverById.get(fault.serverId);
    if (!server) continue;
    const tone = faultLevelInfo[fault.level].tone;
    for (const die of server.dies) {
      const covered = fault.deviceId !== null ? die.spec.deviceId === fault.deviceId : fault.npuIndex === null || fault.npuIndex === die.npuIndex;
      if (covered) dieTone.set(die, worse(dieTone.get(die), tone));
    }
  }
  // Per scope, the dies that are not healthy: every other die of the scope is.
  const tallies = new Map<string, HealthCounts>();
  const tally = (key: string, tone: HealthTone) => {
    let counts = tallies.get(key);
    if (!counts) tallies.set(key, (counts = emptyHealthCounts()));
    counts[tone]++;
  };
  const racks = rackIndex(index).ofServer;
  for (const [die, tone] of dieTone) {
    tally("cluster:", tone);
    if (die.server.pod) tally(`superpod:${die.server.pod.id}`, tone);
    const rack = racks.get(die.server);
    if (rack) tally(`rack:${rack.id}`, tone);
    const row = rack && rowOfRack(index, rack);
    if (row) tally(`row:${row.id}`, tone);
    tally(`server:${die.server.id}`, tone);
    tally(`npu:${npuNodeId(die.server.id, die.npuIndex)}`, tone);
  }
  const collected = faults !== null;
  return {
    collected,
    die: (die) => (collected ? (dieTone.get(die) ?? "healthy") : "unknown"),
    covered: dieTone,
    node(node) {
      if (!collected) return "unknown";
      // A rack (a row) is its servers' dies: its worst state is its distribution's (no fault names a rack or row).
      if (node.kind === "rack" || node.kind === "row") return worstOf(this.counts({ kind: node.kind, id: node.id }, node.counts?.dies ?? 0));
      const relevant =
        node.kind === "superpod" ? byPod.get(node.superPodId ?? node.id) : node.kind === "plane" ? byPlane.get(node.id) : byServer.get(node.serverId ?? node.id);
      // With no fault on it, healthOf still knows what is never "healthy" (the parameter plane, which no source reports on).
      return healthOf(node, relevant ?? []);
    },
    counts(scope, total) {
      if (!collected) return { ...emptyHealthCounts(), unknown: total };
      const counts = { ...(tallies.get(`${scope.kind}:${scope.kind === "cluster" ? "" : scope.id}`) ?? emptyHealthCounts()) };
      counts.healthy = total - counts.degraded - counts.faulty - counts.unknown;
      return counts;
    },
  };
}

/**
 * The view with live health (a copy: views are cached per inventory revision): every node's state, the
 * distribution of the dies of each super pod, row, rack, server and NPU drawn, and of the view's whole scope.
 */
export function withHealth(view: TopologyView, overlay: HealthOverlay): TopologyView {
  const nodes = view.nodes.map((node): TopologyNode => {
    const health = overlay.node(node);
    if (node.kind === "die" || node.kind === "plane" || node.kind === "switch" || !node.counts) return { ...node, health };
    return { ...node, health, healthCounts: overlay.counts({ kind: node.kind, id: node.id }, node.counts.dies) };
  });
  const scope = view.level === "cluster" ? { kind: "cluster" as const, id: "" } : { kind: view.level, id: view.id ?? "" };
  return { ...view, nodes, health: overlay.counts(scope, view.counts.dies) };
}
