import { busPlaneKey, parameterPlaneKey, parseBusPlaneKey, parseSwitchKey } from "@/lib/fabric/derive";
import { switchTargetKeys, targetKey } from "@/lib/faults/model";
import type { IndexedDie, IndexedServer, TopologyIndex } from "./inventory-index";
import type { Crumb, NodeKind, RecentFaults, TopologyNode } from "./model";
import { busSwitchNode, dieNode, npuNode, parameterPlaneNode, planeNode, podLabel, podNode, serverNode, switchNode } from "./nodes";
import { rackIndex, rackLabel } from "./racks";
import { rowIndex, rowLabel, rowOfRack } from "./rows";
import { rackNode } from "./view-racks";
import { rowNode } from "./view-rows";
import { crumbsFor, TopologyNotFoundError } from "./view-parts";

/* A node picked in a view, resolved against the inventory for its details and its faults (./details.ts). */

const noBox = { x: 0, y: 0, width: 0, height: 0 };

/** The other end of a link, at the level a subject counts its links by. */
export type Peer = { id: string; kind: NodeKind; label: string };

const asDie = (die: IndexedDie): Peer => ({ id: die.id, kind: "die", label: `${die.server.id} · die ${die.spec.deviceId}` });
const asServer = (die: IndexedDie): Peer => ({ id: die.server.id, kind: "server", label: die.server.id });
const asPod = (die: IndexedDie): Peer =>
  die.server.pod ? { id: die.server.pod.id, kind: "superpod", label: podLabel(die.server.pod) } : asServer(die);

/** A selected node resolved against the inventory: what it is, the dies it holds, and the fault targets above dies it covers. */
export interface Subject {
  node: TopologyNode;
  path: Crumb[];
  dies: IndexedDie[];
  peerOf: (die: IndexedDie) => Peer;
  /** Fault target keys of the node itself and of its servers and NPUs (the dies' keys are added from `dies`). */
  ownTargets: string[];
  timeline: RecentFaults["timeline"];
}

const npuTargets = (server: IndexedServer) => server.npus.map((npu) => targetKey({ kind: "npu", serverId: server.id, npuIndex: npu.npuIndex }));
const serverTargets = (server: IndexedServer) => [targetKey({ kind: "server", serverId: server.id }), ...npuTargets(server), ...switchTargetKeys(server.id)];
/** The fault timeline's fabric lane (lib/faults/timeline.ts), where switch faults sit. */
export const fabricLaneKey = "fabric";
/** The timeline lanes down to a server: its super pod's, then its own (which opens into die lanes). */
const serverLanes = (server: IndexedServer) => [...(server.pod ? [`pod:${server.pod.id}`] : []), `server:${server.id}`];

/** Throws TopologyNotFoundError for an unknown node. */
export function subjectOf(index: TopologyIndex, kind: NodeKind, id: string): Subject {
  if (kind === "superpod") {
    const pod = index.podById.get(id);
    if (!pod) throw new TopologyNotFoundError("node", id);
    return {
      node: podNode(pod, noBox),
      path: crumbsFor(index, null, pod),
      dies: pod.servers.flatMap((server) => server.dies),
      peerOf: asPod,
      ownTargets: [targetKey({ kind: "super-pod", superPodId: pod.id }), ...pod.servers.flatMap(serverTargets)],
      // A die's target key does not name its super pod: the timeline can only open the pod's lane.
      timeline: { target: null, open: [`pod:${pod.id}`] },
    };
  }
  if (kind === "switch") {
    // A node chip of a server (its faults: SwitchInfoCfg's on that chip) or a bus switch of a plane (no source
    // reports on those: its details are what it takes down). Its stored ports are added by loadNodeDetails.
    const ref = parseSwitchKey(id);
    if (ref?.kind === "node-chip") {
      const server = index.serverById.get(ref.serverId);
      if (!server) throw new TopologyNotFoundError("node", id);
      const podId = server.pod?.id ?? null;
      const planeKey = podId === null ? "" : busPlaneKey(podId, ref.chipId);
      return {
        node: switchNode({ key: id, chipId: ref.chipId, planeKey, ports: null, uplinks: 0 }, server.id, podId, noBox),
        path: crumbsFor(index, server, null),
        dies: [],
        peerOf: asServer,
        ownTargets: [targetKey({ kind: "switch", serverId: server.id, chipId: ref.chipId })],
        timeline: { target: server.id, open: [fabricLaneKey, ...serverLanes(server)] },
      };
    }
    const pod = ref?.kind === "bus-switch" ? index.podById.get(ref.superPodId) : undefined;
    if (ref?.kind !== "bus-switch" || !pod) throw new TopologyNotFoundError("node", id);
    const plane = { key: busPlaneKey(pod.id, ref.plane), index: ref.plane };
    return {
      node: busSwitchNode(id, pod.id, plane, ref.index, pod.servers.length, noBox),
      path: crumbsFor(index, null, pod),
      dies: [],
      peerOf: asPod,
      ownTargets: [],
      timeline: { target: null, open: [fabricLaneKey] },
    };
  }
  if (kind === "plane" && (id === parameterPlaneKey || id.startsWith(`${parameterPlaneKey}/`))) {
    // The parameter plane (or a tier of it): no source reports on its switches; its stored shape is added by the loader.
    const leafPod = /\/leaf:(.+)$/.exec(id)?.[1];
    const pod = leafPod === undefined ? undefined : index.podById.get(leafPod);
    if (leafPod !== undefined && !pod) throw new TopologyNotFoundError("node", id);
    const servers = pod ? pod.servers.length : index.servers.length;
    return {
      node: parameterPlaneNode(id, "Parameter plane", { shape: null, servers, ports: 0 }, noBox, pod?.id ?? null),
      path: crumbsFor(index, null, pod ?? null),
      dies: [],
      peerOf: asPod,
      ownTargets: [],
      timeline: { target: null, open: [] },
    };
  }
  if (kind === "plane") {
    // A bus plane reaches every server of its pod through node chip k of each (chip k uplinks to plane k): its faults
    // are those switch chips'. Its switch and uplink counts come from the stored fabric (loadNodeDetails).
    const place = parseBusPlaneKey(id);
    const pod = place ? index.podById.get(place.superPodId) : undefined;
    if (!place || !pod) throw new TopologyNotFoundError("node", id);
    return {
      node: planeNode({ key: id, index: place.plane, switches: 0, servers: pod.servers.length, uplinks: 0 }, pod.id, noBox),
      path: crumbsFor(index, null, pod),
      dies: [],
      peerOf: asPod,
      ownTargets: pod.servers.map((server) => targetKey({ kind: "switch", serverId: server.id, chipId: place.plane })),
      timeline: { target: null, open: [fabricLaneKey, `plane:${id}`] },
    };
  }
  if (kind === "row") {
    const row = rowIndex(index).byId.get(id);
    if (!row) throw new TopologyNotFoundError("node", id);
    const racks = rackIndex(index).ofServer;
    // A row's links are counted per peer row (or server, outside every row).
    const asRow = (die: IndexedDie): Peer => {
      const rack = racks.get(die.server);
      const other = rack && rowOfRack(index, rack);
      return other ? { id: other.id, kind: "row", label: rowLabel(other) } : asServer(die);
    };
    const servers = row.racks.flatMap((rack) => rack.servers);
    return {
      node: rowNode(row, noBox),
      path: crumbsFor(index, null, null, null, row.id),
      dies: servers.flatMap((server) => server.dies),
      peerOf: asRow,
      ownTargets: servers.flatMap(serverTargets),
      timeline: { target: null, open: [] },
    };
  }
  if (kind === "rack") {
    const rack = rackIndex(index).byId.get(id);
    if (!rack) throw new TopologyNotFoundError("node", id);
    const racks = rackIndex(index).ofServer;
    // A rack's links are counted per peer rack (or super pod, or server, outside every rack).
    const asRack = (die: IndexedDie): Peer => {
      const other = racks.get(die.server);
      return other ? { id: other.id, kind: "rack", label: rackLabel(other) } : asPod(die);
    };
    return {
      node: rackNode(rack, noBox),
      path: crumbsFor(index, null, rack.pod, rack.id),
      dies: rack.servers.flatMap((server) => server.dies),
      peerOf: asRack,
      ownTargets: rack.servers.flatMap(serverTargets),
      timeline: { target: null, open: rack.pod ? [`pod:${rack.pod.id}`] : [] },
    };
  }
  if (kind === "server") {
    const server = index.serverById.get(id);
    if (!server) throw new TopologyNotFoundError("node", id);
    return {
      node: serverNode(server, noBox, server.pod?.id ?? null),
      path: crumbsFor(index, server, null),
      dies: server.dies,
      peerOf: asServer,
      ownTargets: serverTargets(server),
      timeline: { target: server.id, open: serverLanes(server) },
    };
  }
  if (kind === "npu") {
    const match = /^(.*)\/npu(\d+)$/.exec(id);
    const server = match ? index.serverById.get(match[1]!) : undefined;
    const npu = server?.npus.find((n) => n.npuIndex === Number(match![2]));
    if (!server || !npu) throw new TopologyNotFoundError("node", id);
    return {
      node: npuNode(server, npu.npuIndex, npu.id, noBox, npu.dies.length),
      path: crumbsFor(index, server, null),
      dies: npu.dies,
      peerOf: asDie,
      ownTargets: [targetKey({ kind: "npu", serverId: server.id, npuIndex: npu.npuIndex })],
      timeline: { target: server.id, open: serverLanes(server) },
    };
  }
  const die = index.dieById.get(id);
  if (!die) throw new TopologyNotFoundError("node", id);
  return {
    node: dieNode(die, noBox, `${die.server.id}/npu${die.npuIndex}`),
    path: crumbsFor(index, die.server, null),
    dies: [die],
    peerOf: asDie,
    ownTargets: [],
    // `<server>/<device>` is in the die's own key and in the keys of its links.
    timeline: { target: dieEnd(die), open: serverLanes(die.server) },
  };
}

/** A die as one end of a link target key (`link:<server>/<device>~<server>/<device>`). */
export const dieEnd = (die: IndexedDie) => `${die.server.id}/${die.spec.deviceId}`;
