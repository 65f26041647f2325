import type { FabricProfile } from "./profiles";

/** A plane of the fabric: a super pod's bus plane, or the cluster's RoCE parameter plane (superPodId null). */
export interface FabricPlane {
  key: string;
  kind: "bus" | "parameter";
  superPodId: string | null;
  index: number;
  /** "all-to-all" for the bus planes as published; the parameter plane's shape, or null when unknown. */
  shape: "all-to-all" | "leaf-spine" | null;
}

/** A switch: a bus switch in a bus cabinet, or one of a server's node-side bus chips (SwitchInfoCfg's SwitchChipId). */
export interface FabricSwitch {
  key: string;
  kind: "bus-switch" | "node-chip";
  planeKey: string;
  /** Position in the plane (bus switch) or the chip id on its server (node chip). */
  index: number;
  serverId: string | null;
  /** Ports of the switch, or null when unknown. */
  ports: number | null;
}

/**
 * A link, always from a switch or a server's NPU into a plane:
 * - uplink: a server's node chip to a bus switch of its plane (`ports` optical ports);
 * - parameter: an NPU's RoCE port into the parameter plane (switch unknown).
 * NPU-to-node-chip links are not listed: every NPU has `bus.npuLinksPerNodeChip` links to every chip of its server
 * (profile), so they would be 56 rows per A3 server saying the same thing.
 */
export interface FabricLink {
  kind: "uplink" | "parameter";
  planeKey: string;
  switchKey: string | null;
  peerSwitchKey: string | null;
  serverId: string;
  npuIndex: number | null;
  ports: number;
}

export interface DerivedFabric {
  profileId: string;
  planes: FabricPlane[];
  switches: FabricSwitch[];
  links: FabricLink[];
  /** What could not be derived and why (an unknown number of the profile, a super pod larger than published). */
  gaps: string[];
}

export interface FabricServer {
  serverId: string;
  superPodId: string | null;
  npuIndexes: readonly number[];
}

export const parameterPlaneKey = "param";
export const busPlaneKey = (superPodId: string, plane: number) => `pod:${superPodId}/ub:${plane}`;
/** `pod:<super pod>/ub:<plane>` → its super pod and plane index, or null for any other key. */
export function parseBusPlaneKey(key: string): { superPodId: string; plane: number } | null {
  const match = /^pod:(.+)\/ub:(\d+)$/.exec(key);
  return match ? { superPodId: match[1]!, plane: Number(match[2]) } : null;
}
export const busSwitchKey = (superPodId: string, plane: number, index: number) => `${busPlaneKey(superPodId, plane)}/sw:${index}`;
export const nodeChipKey = (serverId: string, chipId: number) => `server:${serverId}/chip:${chipId}`;

/**
 * A switch of the stored fabric, as its key names it: a server's node chip (`server:<id>/chip:<k>`) or a bus switch of
 * a super pod's plane (`pod:<pod>/ub:<plane>/sw:<i>`), or null for any other key.
 */
export type SwitchRef = { kind: "node-chip"; serverId: string; chipId: number } | { kind: "bus-switch"; superPodId: string; plane: number; index: number };

export function parseSwitchKey(key: string): SwitchRef | null {
  const chip = /^server:(.+)\/chip:(\d+)$/.exec(key);
  if (chip) return { kind: "node-chip", serverId: chip[1]!, chipId: Number(chip[2]) };
  const bus = /^pod:(.+)\/ub:(\d+)\/sw:(\d+)$/.exec(key);
  if (bus) return { kind: "bus-switch", superPodId: bus[1]!, plane: Number(bus[2]), index: Number(bus[3]) };
  return null;
}

/**
 * The fabric of a cluster as the profile says it is built, for its servers in rank-table order: per super pod the
 * bus planes, their switches and every server's node chips with their uplinks (chip k → every switch of plane k, the
 * uplinks spread evenly) and NPU links; and one parameter plane with a port per NPU. Pure and deterministic.
 */
export function deriveFabric(profile: FabricProfile, servers: readonly FabricServer[]): DerivedFabric {
  const fabric: DerivedFabric = { profileId: profile.id, planes: [], switches: [], links: [], gaps: [] };
  deriveBus(profile, servers, fabric);
  deriveParameterPlane(profile, servers, fabric);
  return fabric;
}

function deriveBus(profile: FabricProfile, servers: readonly FabricServer[], fabric: DerivedFabric): void {
  const bus = profile.bus;
  if (bus.planes.value === 0) return;
  const pods = new Map<string, FabricServer[]>();
  for (const server of servers) {
    if (server.superPodId === null) continue;
    const list = pods.get(server.superPodId) ?? [];
    list.push(server);
    pods.set(server.superPodId, list);
  }
  if (pods.size === 0) return;
  const needed = { planes: bus.planes, switchesPerPlane: bus.switchesPerPlane, nodeChips: bus.nodeChips, uplinksPerServerPerPlane: bus.uplinksPerServerPerPlane, chipPlane: bus.chipPlane };
  const missing = Object.entries(needed).filter(([, f]) => f.value === null).map(([name]) => `bus.${name}`);
  if (missing.length) {
    fabric.gaps.push(`bus planes not derived: ${missing.join(", ")} unknown in profile ${profile.id}`);
    return;
  }
  const planes = bus.planes.value!;
  const perPlane = bus.switchesPerPlane.value!;
  const uplinkPorts = bus.uplinksPerServerPerPlane.value! / perPlane;
  const chips = bus.nodeChips.value!;
  const maxServers = profile.serversPerSuperPod.value;
  for (const [podId, podServers] of pods) {
    if (maxServers !== null && podServers.length > maxServers) {
      fabric.gaps.push(`super pod ${podId} has ${podServers.length} servers, more than the ${maxServers} the profile says a super pod holds`);
    }
    for (let p = 0; p < planes; p++) {
      const planeKey = busPlaneKey(podId, p);
      fabric.planes.push({ key: planeKey, kind: "bus", superPodId: podId, index: p, shape: "all-to-all" });
      for (let i = 0; i < perPlane; i++) {
        fabric.switches.push({ key: busSwitchKey(podId, p, i), kind: "bus-switch", planeKey, index: i, serverId: null, ports: podServers.length * uplinkPorts });
      }
    }
    for (const server of podServers) {
      for (let c = 0; c < chips; c++) {
        // chip-k-to-plane-k (the only rule profiles can name): chip c uplinks to plane c.
        const planeKey = busPlaneKey(podId, c);
        const chipKey = nodeChipKey(server.serverId, c);
        fabric.switches.push({ key: chipKey, kind: "node-chip", planeKey, index: c, serverId: server.serverId, ports: bus.portsPerNodeChip.value });
        for (let i = 0; i < perPlane; i++) {
          fabric.links.push({ kind: "uplink", planeKey, switchKey: chipKey, peerSwitchKey: busSwitchKey(podId, c, i), serverId: server.serverId, npuIndex: null, ports: uplinkPorts });
        }
      }
    }
  }
}

function deriveParameterPlane(profile: FabricProfile, servers: readonly FabricServer[], fabric: DerivedFabric): void {
  const ports = profile.parameter.portsPerServer.value;
  if (ports === null) {
    fabric.gaps.push(`parameter plane not derived: parameter.portsPerServer unknown in profile ${profile.id}`);
    return;
  }
  if (servers.length === 0 || ports === 0) return;
  fabric.planes.push({ key: parameterPlaneKey, kind: "parameter", superPodId: null, index: 0, shape: profile.parameter.shape.value });
  for (const server of servers) {
    // One RoCE port per NPU when the profile has as many ports as NPUs; otherwise the ports are not tied to NPUs.
    if (server.npuIndexes.length === ports) {
      for (const npuIndex of server.npuIndexes) {
        fabric.links.push({ kind: "parameter", planeKey: parameterPlaneKey, switchKey: null, peerSwitchKey: null, serverId: server.serverId, npuIndex, ports: 1 });
      }
    } else {
      fabric.links.push({ kind: "parameter", planeKey: parameterPlaneKey, switchKey: null, peerSwitchKey: null, serverId: server.serverId, npuIndex: null, ports });
    }
  }
}

export interface FabricCounts {
  busPlanes: number;
  busSwitches: number;
  nodeChips: number;
  uplinks: number;
  parameterLinks: number;
}

export function countFabric(fabric: Pick<DerivedFabric, "planes" | "switches" | "links">): FabricCounts {
  return {
    busPlanes: fabric.planes.filter((p) => p.kind === "bus").length,
    busSwitches: fabric.switches.filter((s) => s.kind === "bus-switch").length,
    nodeChips: fabric.switches.filter((s) => s.kind === "node-chip").length,
    uplinks: fabric.links.filter((l) => l.kind === "uplink").length,
    parameterLinks: fabric.links.filter((l) => l.kind === "parameter").length,
  };
}
