import type { IndexedDie, IndexedPod, IndexedServer } from "./inventory-index";
import type { Box } from "./layout";
import type { TopologyNode } from "./model";

/* The nodes a topology view draws, one builder per kind, shared by the views (view-*.ts) and the details (node-subject.ts). */

export const round = (value: number) => Math.round(value * 10) / 10;
const boxFields = (box: Box) => ({ x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) });

export function podLabel(pod: IndexedPod): string {
  return `Super pod ${pod.id}`;
}

export function podNode(pod: IndexedPod, box: Box): TopologyNode {
  return {
    id: pod.id,
    kind: "superpod",
    label: podLabel(pod),
    parent: null,
    health: "unknown",
    ...boxFields(box),
    drillable: true,
    counts: { servers: pod.servers.length, npus: pod.servers.reduce((n, s) => n + s.npuCount, 0), dies: pod.dies },
    superPodId: pod.id,
  };
}

/** A group of servers drawn as one aggregate cell (a rack, a row of racks): its counts, its health added with the view's. */
export function groupNode(kind: "rack" | "row", id: string, label: string, counts: { servers: number; npus: number; dies: number }, superPodId: string | null, box: Box): TopologyNode {
  return { id, kind, label, parent: null, health: "unknown", ...boxFields(box), drillable: true, aggregated: true, counts, superPodId };
}

export function serverNode(server: IndexedServer, box: Box, parent: string | null): TopologyNode {
  return {
    id: server.id,
    kind: "server",
    label: server.id,
    parent,
    health: "unknown",
    ...boxFields(box),
    drillable: true,
    counts: { servers: 1, npus: server.npuCount, dies: server.dieCount },
    superPodId: server.pod?.id ?? null,
    serverId: server.id,
    hostIp: server.spec.hostIp,
    model: server.spec.model,
  };
}

export function npuNode(server: IndexedServer, npuIndex: number, id: string, box: Box, dies: number): TopologyNode {
  return {
    id,
    kind: "npu",
    label: `NPU ${npuIndex}`,
    parent: server.id,
    health: "unknown",
    ...boxFields(box),
    drillable: false,
    counts: { servers: 1, npus: 1, dies },
    serverId: server.id,
    npuIndex,
  };
}

export function dieNode(die: IndexedDie, box: Box, parent: string): TopologyNode {
  const d = die.spec;
  return {
    id: die.id,
    kind: "die",
    label: `Die ${d.dieIndex} · device ${d.deviceId}`,
    parent,
    health: "unknown",
    ...boxFields(box),
    drillable: false,
    serverId: die.server.id,
    superPodId: die.server.pod?.id ?? null,
    npuIndex: die.npuIndex,
    deviceId: d.deviceId,
    dieIndex: d.dieIndex,
    superDeviceId: d.superDeviceId,
    deviceIp: d.deviceIp,
    devicePort: d.devicePort,
    backupDeviceIp: d.backupDeviceIp,
    backupDevicePort: d.backupDevicePort,
    hostPort: d.hostPort,
    rank: die.rank,
  };
}

/**
 * A bus plane of a super pod as the stored fabric has it (db/queries/fabric.ts `podBusPlanes`), aggregated: its bus
 * switches, the servers attached and their uplinks into it in total.
 */
export interface PodBusPlane {
  key: string;
  index: number;
  switches: number;
  servers: number;
  uplinks: number;
}

export function planeLabel(plane: Pick<PodBusPlane, "index">): string {
  return `Bus plane ${plane.index}`;
}

export function planeNode(plane: PodBusPlane, superPodId: string, box: Box): TopologyNode {
  return {
    id: plane.key,
    kind: "plane",
    planeKind: "bus",
    shape: "all-to-all",
    label: planeLabel(plane),
    parent: null,
    health: "unknown",
    ...boxFields(box),
    drillable: false,
    counts: { servers: plane.servers, npus: 0, dies: 0 },
    superPodId,
    planeIndex: plane.index,
    switches: plane.switches,
    uplinks: plane.uplinks,
  };
}


/** A server's node-side bus chip as stored (db/queries/fabric.ts `serverNodeChips`): its plane and uplinks into it. */
export interface ServerNodeChip {
  key: string;
  chipId: number;
  planeKey: string;
  ports: number | null;
  /** Optical ports from the chip to the bus switches of its plane. */
  uplinks: number;
}

export function switchNode(chip: ServerNodeChip, serverId: string, superPodId: string | null, box: Box): TopologyNode {
  return {
    id: chip.key,
    kind: "switch",
    label: `Switch chip ${chip.chipId}`,
    parent: null,
    health: "unknown",
    ...boxFields(box),
    drillable: false,
    serverId,
    superPodId,
    switchKind: "node-chip",
    switchIndex: chip.chipId,
    planeKey: chip.planeKey,
    ports: chip.ports,
    uplinks: chip.uplinks,
  };
}

/** A bus switch of a plane (lib/fabric/derive.ts `busSwitchKey`), for its details: it is drawn inside its plane's bar. */
export function busSwitchNode(key: string, superPodId: string, plane: { key: string; index: number }, index: number, servers: number, box: Box): TopologyNode {
  return {
    id: key,
    kind: "switch",
    label: `Bus switch ${plane.index}.${index}`,
    parent: null,
    health: "unknown",
    ...boxFields(box),
    drillable: false,
    superPodId,
    switchKind: "bus-switch",
    switchIndex: index,
    planeKey: plane.key,
    planeIndex: plane.index,
    counts: { servers, npus: 0, dies: 0 },
  };
}

/** The cluster's RoCE parameter plane as stored: its shape (null: unknown) and the RoCE ports attached to it. */
export interface ParameterPlane {
  shape: string | null;
  servers: number;
  ports: number;
}

/** A tier of the parameter plane (`param` whole when its shape is unknown, `param/leaf:<pod>`, `param/spine`). */
export function parameterPlaneNode(id: string, label: string, plane: ParameterPlane, box: Box, superPodId: string | null = null): TopologyNode {
  return {
    id,
    kind: "plane",
    label,
    parent: null,
    health: "unknown",
    ...boxFields(box),
    drillable: false,
    planeKind: "parameter",
    shape: plane.shape,
    superPodId,
    counts: { servers: plane.servers, npus: 0, dies: 0 },
    ports: plane.ports,
  };
}

/** What a view draws of the stored fabric; each level reads what it needs (db/queries/topology-view.ts). */
export interface ViewFabric {
  /** The viewed super pod's bus planes (super pod view), or the viewed server's pod's (server view). */
  busPlanes?: readonly PodBusPlane[];
  /** The viewed server's node chips (server view). */
  nodeChips?: readonly ServerNodeChip[];
  /** The parameter plane (cluster and server views), null when the cluster's fabric has none. */
  parameter?: ParameterPlane | null;
}
