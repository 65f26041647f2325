import { parameterPlaneKey } from "@/lib/fabric/derive";
import { faultLevelInfo, type FaultLevel, type HealthTone } from "./levels";

/** An open fault as the overlay needs it (GET /api/v1/fault-events/health answers these). */
export interface OpenFault {
  superPodId: string | null;
  serverId: string;
  npuIndex: number | null;
  deviceId: number | null;
  /**
   * The bus plane a switch fault degrades for the whole pod (lib/fabric `busPlaneKey`), else null: set for a fault of
   * the chip itself or of one of its uplinks into the plane, not for a port facing one NPU or CPU of the server (see
   * `planeWideReach` in db/queries/faults/health.ts for why).
   */
  planeKey: string | null;
  /** The node chip a switch fault is on (lib/fabric `nodeChipKey`), whatever its reach; else null. */
  switchKey?: string | null;
  level: FaultLevel;
}

/** What the overlay reads of a topology node (lib/topology/model.ts TopologyNode). */
export interface HealthNode {
  kind: string;
  id: string;
  superPodId?: string | null | undefined;
  serverId?: string | undefined;
  npuIndex?: number | undefined;
  deviceId?: number | undefined;
}

const rank: Record<HealthTone, number> = { healthy: 0, unknown: 1, degraded: 2, faulty: 3 };
const worse = (a: HealthTone, b: HealthTone): HealthTone => (rank[b] > rank[a] ? b : a);

/**
 * The live health of topology nodes from the open fault events: a die takes the tone of its worst open fault
 * (including faults of its NPU and server as a whole); an NPU, server or super pod the worst of what it holds; a bus
 * plane the worst open switch-chip fault on it; with no open fault a node is healthy. Tones come from lib/faults/levels.ts, so colours mean the same everywhere.
 */
export function healthOf(node: HealthNode, faults: OpenFault[]): HealthTone {
  // No source reports on the RoCE parameter plane's own switches: its health is unknown, never "healthy".
  if (node.kind === "plane" && node.id.startsWith(parameterPlaneKey)) return "unknown";
  let tone: HealthTone = "healthy";
  for (const fault of faults) {
    if (!covers(node, fault)) continue;
    tone = worse(tone, faultLevelInfo[fault.level].tone);
  }
  return tone;
}

function covers(node: HealthNode, fault: OpenFault): boolean {
  switch (node.kind) {
    case "superpod":
      return fault.superPodId !== null && fault.superPodId === (node.superPodId ?? node.id);
    case "server":
      return fault.serverId === (node.serverId ?? node.id);
    case "npu":
      return fault.serverId === node.serverId && (fault.npuIndex === null || fault.npuIndex === node.npuIndex);
    case "die":
      return (
        fault.serverId === node.serverId &&
        (fault.deviceId === node.deviceId || (fault.deviceId === null && (fault.npuIndex === null || fault.npuIndex === node.npuIndex)))
      );
    case "plane":
      // A switch fault on the plane degrades it for every server of the pod (the plane node stands for all of them).
      return fault.planeKey !== null && fault.planeKey === node.id;
    case "switch":
      // The chip itself, whatever the reach of its fault: an NPU-facing port colours the chip and its server only.
      return fault.switchKey != null && fault.switchKey === node.id;
    default:
      return false;
  }
}

/** Sets `health` on every node of a view (a copy; the view itself is cached per inventory revision). */
export function withFaultHealth<V extends { nodes: (HealthNode & { health: string })[] }>(view: V, faults: OpenFault[]): V {
  return { ...view, nodes: view.nodes.map((node) => ({ ...node, health: healthOf(node, faults) })) };
}
