import { busPlaneKey, type SwitchRef } from "./derive";

/**
 * What a 灵衢 switch fault takes down, from where it sits (lib/fabric/switch-faults.ts) and what is on the other end of
 * the port. The device plugin writes the peer into AssembledFaultCode's third field for port-level faults: `cpu`,
 * `npu` or `L2` (a bus switch), `na` for a chip-level fault (Ascend/mind-cluster ascend_switch.go
 * `setExtraFaultInfo`, PeerPortDevice 0/1/2), and the peer's id in PeerPortId.
 */
export const switchPeers = ["cpu", "npu", "L2", "na"] as const;
export type SwitchPeer = (typeof switchPeers)[number];

/** `[0x08520003,155649,npu,na]` → `npu`; anything else (a plain hex code, an unknown word) → null. */
export function peerOfAssembledCode(assembled: string): SwitchPeer | null {
  const fields = /^\[([^\]]*)\]$/.exec(assembled.trim())?.[1]?.split(",");
  const peer = fields?.[2]?.trim();
  return (switchPeers as readonly string[]).includes(peer ?? "") ? (peer as SwitchPeer) : null;
}

export interface SwitchFaultReach {
  /**
   * - chip: the whole node chip, so the server loses its way into the chip's plane;
   * - uplink: one optical link from the chip to a bus switch of the plane;
   * - npu-port / cpu-port: a link between the chip and one NPU / CPU of the server;
   * - port: a port whose peer the fault does not say.
   */
  scope: "chip" | "uplink" | "npu-port" | "cpu-port" | "port";
  plane: string;
  /**
   * Share of the server's bus uplink capacity behind the faulty part (chip: its whole plane; uplink: one link), else
   * null: what is lost if that part stops, whatever the fault's level says about whether it has.
   */
  serverBusShareAtRisk: number | null;
  /** The NPU of the server whose link to the chip is down (PeerPortId), for an npu-port fault. */
  npuIndex: number | null;
  /** The other servers of the pod reach this server through the plane with less (chip, uplink) or unchanged capacity. */
  podDegraded: boolean;
}

/**
 * The reach of a mapped switch fault. `planes` is how many planes the server's chips reach (one per chip) and
 * `uplinksToPlane` how many uplinks the chip has into its plane, both as stored in the fabric.
 */
export function switchFaultReach(
  fault: { plane: string; chipAlarm: boolean; assembledCode: string; peerPortId: number | null },
  fabric: { planes: number; uplinksToPlane: number },
): SwitchFaultReach {
  // The plugin writes `na` for event types that are not port-level: those are chip faults too.
  const peer = fault.chipAlarm ? "na" : peerOfAssembledCode(fault.assembledCode);
  const perPlane = fabric.planes > 0 ? 1 / fabric.planes : null;
  const base = { plane: fault.plane, npuIndex: null, serverBusShareAtRisk: null, podDegraded: false };
  if (peer === "na") return { ...base, scope: "chip", serverBusShareAtRisk: perPlane, podDegraded: true };
  if (peer === "L2") {
    const share = perPlane !== null && fabric.uplinksToPlane > 0 ? perPlane / fabric.uplinksToPlane : null;
    return { ...base, scope: "uplink", serverBusShareAtRisk: share, podDegraded: true };
  }
  if (peer === "npu") return { ...base, scope: "npu-port", npuIndex: fault.peerPortId };
  if (peer === "cpu") return { ...base, scope: "cpu-port" };
  return { ...base, scope: "port" };
}

/** What a switch failure takes down, server by server (lib/fabric/impact.ts `switchBlastRadius`). */
export interface BlastRadius {
  switchKey: string;
  planeKey: string;
  /**
   * - cut: the server loses the plane altogether (its node chip into the plane is gone): 1/planes of its bus;
   * - degraded: the server keeps the plane with less: fewer uplinks into it, or a peer it can no longer reach over it.
   */
  servers: { serverId: string; effect: "cut" | "degraded"; busShareLost: number | null }[];
  /** Dies on the cut servers: every die of a server uses every plane (each NPU links to each node chip). */
  cutDies: number;
  degradedDies: number;
}

/**
 * The blast radius of a whole switch failing, from the fabric's shape (A3: 7 all-to-all planes, 8 bus switches each,
 * one uplink from every server's chip k to every switch of plane k):
 * - a server's node chip k: that server is cut from plane k (1/7 of its bus), and plane k is degraded for every other
 *   server of the pod (none of them reaches that server over it);
 * - bus switch i of plane k: every server of the pod loses one of its uplinks into plane k (1/56 of its bus); none is cut.
 * `pod` lists the pod's servers with their die counts, in order.
 */
export function switchBlastRadius(
  ref: SwitchRef,
  switchKey: string,
  pod: { superPodId: string; servers: readonly { serverId: string; dies: number }[] },
  fabric: { planes: number; uplinksPerServerPerPlane: number | null },
): BlastRadius {
  const plane = ref.kind === "node-chip" ? ref.chipId : ref.plane;
  const planeKey = busPlaneKey(pod.superPodId, plane);
  const perPlane = fabric.planes > 0 ? 1 / fabric.planes : null;
  const perUplink = perPlane !== null && fabric.uplinksPerServerPerPlane ? perPlane / fabric.uplinksPerServerPerPlane : null;
  const radius: BlastRadius = { switchKey, planeKey, servers: [], cutDies: 0, degradedDies: 0 };
  for (const server of pod.servers) {
    const cut = ref.kind === "node-chip" && server.serverId === ref.serverId;
    radius.servers.push({ serverId: server.serverId, effect: cut ? "cut" : "degraded", busShareLost: cut ? perPlane : ref.kind === "bus-switch" ? perUplink : 0 });
    if (cut) radius.cutDies += server.dies;
    else radius.degradedDies += server.dies;
  }
  // Cut servers first: they are what the operator acts on.
  radius.servers.sort((a, b) => (a.effect === b.effect ? 0 : a.effect === "cut" ? -1 : 1));
  return radius;
}
