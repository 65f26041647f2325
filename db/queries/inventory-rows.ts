import type { ClusterSpec } from "@/lib/inventory/model";
import type { Issue } from "@/lib/rank-table";
import { inventoryFromRankTable } from "@/lib/topology/import";
import { arrayLiteral } from "./pg-array";
import { copyField } from "./pg-copy";

/**
 * An inventory part as the rows of its tables, in COPY's text format (./pg-copy.ts), with their row ids already
 * assigned. Pure: no database here, so the CLI turns each SuperPoD table into rows in its worker thread, next to the
 * parse, and the main thread only streams text (strings cross threads as one copy; an inventory's object graph
 * cost more to clone, on both sides, than the rest of the import's CPU). Ids come from `EncoderState.next`, a range
 * the writer took from the tables' sequences (./inventory-writer.ts), so nothing has to be asked of the database
 * between parts.
 */
export type InventoryPart = Pick<ClusterSpec, "mode" | "superPodIds" | "servers" | "links">;

export interface IdCursor {
  superPod: number;
  server: number;
  npu: number;
  device: number;
}

/** What the encoding of one part leaves for the next: the next ids and positions, and the super pods written so far. */
export interface EncoderState {
  clusterId: number;
  next: IdCursor;
  podPosition: number;
  serverPosition: number;
  /** super_pod_id → row id of every super pod written (an inventory streamed per super pod names each again). */
  pods: Record<string, number>;
}

export interface RowCounts {
  superPods: number;
  servers: number;
  npus: number;
  devices: number;
  netAddresses: number;
  links: number;
}

/** The COPY text of each table (rows joined by newlines, each ending in one), what it holds, and the state after it. */
export interface EncodedInventoryRows {
  /** The part's mode, when it says one (a cluster's inventory replaced in place keeps the cluster's). */
  mode: InventoryPart["mode"] | undefined;
  counts: RowCounts;
  superPods: string;
  servers: string;
  npus: string;
  devices: string;
  netAddresses: string;
  links: string;
  /**
   * A link naming a die the part does not define: refused by the writer once the rows before it are written, so
   * a twin server id (which leaves the other server's dies unnamed) is refused by the database first, as it was.
   */
  unresolved: string | null;
  state: EncoderState;
}

/** device_id is in [0, 64] (db/schema/device/table.ts devices_device_id_range): a server's dies fit 65 slots. */
const deviceSlots = 65;

/** Table and columns each text of EncodedInventoryRows is for, in the order they must be written. */
export const inventoryCopyTargets = [
  ["superPods", "super_pods (id, cluster_id, super_pod_id, position)"],
  ["servers", "servers (id, cluster_id, super_pod_ref, server_id, host_ip, model, position)"],
  ["npus", "npus (id, server_ref, npu_index)"],
  [
    "devices",
    "devices (id, cluster_id, server_ref, npu_ref, device_id, die_index, super_device_id, device_ip, device_port, backup_device_ip, backup_device_port, host_port)",
  ],
  ["netAddresses", "device_net_addresses (cluster_id, device_ref, net_layer, net_instance_id, net_type, position, addr_type, addr, ports, plane_id)"],
  ["links", "links (cluster_id, kind, source_device, target_device)"],
] as const satisfies readonly (readonly [keyof EncodedInventoryRows, string])[];

/** Per server id, its dies' row ids by device id (0: none), for the links to name them by. */
export type DieRefs = Map<string, Int32Array>;

/**
 * The rows of one part. Twin server or device ids are left for the database to refuse (servers_cluster_server_id,
 * devices_server_device_id), as they always were; a server naming a super pod, or a link naming a die, that the
 * inventory does not define is refused here. Links name dies of this part, or of the parts before it encoded with
 * the same `dies` (an inventory streamed a batch of servers at a time has its links last).
 */
export function encodeInventoryRows(
  part: Omit<InventoryPart, "mode"> & { mode?: InventoryPart["mode"] },
  before: EncoderState,
  dieRefs: DieRefs = new Map(),
): EncodedInventoryRows {
  const { clusterId } = before;
  const next = { ...before.next };
  const pods = { ...before.pods };
  let podPosition = before.podPosition;
  let serverPosition = before.serverPosition;
  const counts: RowCounts = { superPods: 0, servers: 0, npus: 0, devices: 0, netAddresses: 0, links: 0 };

  let superPods = "";
  for (const id of part.superPodIds) {
    if (Object.hasOwn(pods, id)) continue;
    pods[id] = next.superPod;
    superPods += `${next.superPod++}\t${clusterId}\t${copyField(id)}\t${podPosition++}\n`;
    counts.superPods++;
  }

  let servers = "";
  let npus = "";
  let devices = "";
  let netAddresses = "";
  for (const server of part.servers) {
    const serverRef = next.server++;
    let podRef: number | null = null;
    if (server.superPodId !== null) {
      if (!Object.hasOwn(pods, server.superPodId)) throw new Error(`the inventory names a super pod it does not define: ${server.superPodId}`);
      podRef = pods[server.superPodId]!;
    }
    servers += `${serverRef}\t${clusterId}\t${copyField(podRef)}\t${copyField(server.serverId)}\t${copyField(server.hostIp)}\t${copyField(server.model)}\t${serverPosition++}\n`;
    counts.servers++;
    // A twin server id: the later server's dies are the ones its links name (the database refuses the twin).
    const slots = new Int32Array(deviceSlots);
    dieRefs.set(server.serverId, slots);
    for (const npu of server.npus) {
      const npuRef = next.npu++;
      npus += `${npuRef}\t${serverRef}\t${npu.npuIndex}\n`;
      counts.npus++;
      for (const die of npu.dies) {
        const id = next.device++;
        if (die.deviceId >= 0 && die.deviceId < deviceSlots) slots[die.deviceId] ||= id;
        devices +=
          `${id}\t${clusterId}\t${serverRef}\t${npuRef}\t${die.deviceId}\t${die.dieIndex}\t${copyField(die.superDeviceId)}\t${copyField(die.deviceIp)}\t` +
          `${copyField(die.devicePort)}\t${copyField(die.backupDeviceIp)}\t${copyField(die.backupDevicePort)}\t${copyField(die.hostPort)}\n`;
        counts.devices++;
        // The network levels of "2.0" ranks: a row per address of each level.
        for (const level of die.netLevels ?? []) {
          const head = `${clusterId}\t${id}\t${level.netLayer}\t${copyField(level.netInstanceId)}\t${copyField(level.netType)}\t`;
          for (let position = 0; position < level.addresses.length; position++) {
            const address = level.addresses[position]!;
            netAddresses += `${head}${position}\t${copyField(address.addrType)}\t${copyField(address.addr)}\t${copyField(arrayLiteral(address.ports))}\t${copyField(address.planeId)}\n`;
            counts.netAddresses++;
          }
        }
      }
    }
  }

  let unresolved: string | null = null;
  const dieRef = (serverId: string, deviceId: number): number => {
    const ref = dieRefs.get(serverId)?.[deviceId] ?? 0;
    if (ref === 0) unresolved ??= `the inventory names a die it does not define: ${serverId}/${deviceId}`;
    return ref;
  };
  let links = "";
  for (const link of part.links) {
    const a = dieRef(link.source.serverId, link.source.deviceId);
    const b = dieRef(link.target.serverId, link.target.deviceId);
    if (a === 0 || b === 0) continue;
    // Links are undirected and stored once, source < target (links_ordered_pair).
    links += `${clusterId}\t${link.kind}\t${a < b ? a : b}\t${a < b ? b : a}\n`;
    counts.links++;
  }
  return { mode: part.mode, counts, superPods, servers, npus, devices, netAddresses, links, unresolved, state: { clusterId, next, podPosition, serverPosition, pods } };
}

/**
 * A rank table's text as the rows of its inventory, numbered on from `state`; or, when it cannot become an
 * inventory, its findings (only then: a table that can is not sent back with its warnings).
 */
export function inventoryRowsFromRankTable(text: string, state: EncoderState): { rows: EncodedInventoryRows | null; issues: Issue[] } {
  const { inventory, issues } = inventoryFromRankTable(text);
  return inventory ? { rows: encodeInventoryRows(inventory, state), issues: [] } : { rows: null, issues };
}
