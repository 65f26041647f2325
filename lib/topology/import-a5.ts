/**
 * Inventory from a "2.0" rank table (Atlas 350/850/950, lib/rank-table/a5-model.ts), for a table the validator
 * found without errors. The shape, from HCCL's A5 reference (`rank_table_config_a5.md`, hicann/hccl@09300b70):
 * - a rank is one NPU: it becomes an NPU with a single die (dieIndex 0) whose device_id is the rank's, numbered in
 *   its server by local_id;
 * - the ranks sharing a net_layer 0 instance are one AI Server ("Server内连接", described by its topology file): a
 *   server whose server_id is that instance id, of model "Atlas 950";
 * - a net_layer 1 instance (the network joining AI Servers: a SuperPoD) is a super pod, and the table runs in super
 *   pod mode when there is one; ranks without level 1 leave their server in no super pod (AI Server mode);
 * - every level of the rank is kept with its addresses (EID or host NIC, ports, network plane) in `netLevels`.
 * Links follow the levels the table gives: level 0 a ring through each server's NPUs in local_id order, level 1 the
 * same local_id of neighbouring servers of one super pod (the planes are switched fabrics; these are the paths worth
 * drawing and blaming for a fault, as for the 1.x planes).
 */
import type { LinkSpec, NetLevelSpec, ServerSpec } from "@/lib/inventory/model";
import type { ClusterMode } from "@/lib/inventory/vocabulary";
import { isJsonObject, type JsonObject, type JsonValue } from "@/lib/rank-table";

/** The inventory's part of a cluster (as lib/topology/import.ts `Inventory`). */
export interface A5Inventory {
  mode: ClusterMode;
  superPodIds: string[];
  servers: ServerSpec[];
  links: LinkSpec[];
}

const listOf = (value: JsonValue | undefined): JsonObject[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
const textOf = (value: JsonValue | undefined): string | null => (typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null);
const numberOf = (value: JsonValue | undefined): number | null => (typeof value === "number" && Number.isInteger(value) ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : null);

function levelsOf(rank: JsonObject): NetLevelSpec[] {
  return listOf(rank.level_list).map((level) => ({
    netLayer: numberOf(level.net_layer) ?? 0,
    netInstanceId: textOf(level.net_instance_id) ?? "",
    netType: textOf(level.net_type) ?? "",
    addresses: listOf(level.rank_addr_list).map((address) => ({
      addrType: textOf(address.addr_type) ?? "",
      addr: textOf(address.addr) ?? "",
      ports: Array.isArray(address.ports) ? address.ports.filter((port): port is string => typeof port === "string") : [],
      planeId: textOf(address.plane_id),
    })),
  }));
}

const instanceAt = (levels: readonly NetLevelSpec[], layer: number) => levels.find((level) => level.netLayer === layer)?.netInstanceId;

/** The inventory of a valid "2.0" table's value; servers and super pods in order of first appearance, NPUs by local_id. */
export function inventoryFromA5Table(root: JsonObject): A5Inventory {
  const servers = new Map<string, ServerSpec>();
  const superPodIds: string[] = [];
  const ranks = listOf(root.rank_list)
    .map((rank) => ({ rank, rankId: numberOf(rank.rank_id) ?? 0 }))
    .sort((a, b) => a.rankId - b.rankId);
  for (const { rank } of ranks) {
    const netLevels = levelsOf(rank);
    const serverId = instanceAt(netLevels, 0) ?? `rank${numberOf(rank.rank_id)}`;
    const superPodId = instanceAt(netLevels, 1) ?? null;
    if (superPodId !== null && !superPodIds.includes(superPodId)) superPodIds.push(superPodId);
    let server = servers.get(serverId);
    if (server === undefined) {
      server = { serverId, hostIp: null, model: "Atlas 950", superPodId, npus: [] };
      servers.set(serverId, server);
    }
    const deviceId = numberOf(rank.device_id) ?? 0;
    server.npus.push({
      npuIndex: numberOf(rank.local_id) ?? server.npus.length,
      dies: [{ deviceId, dieIndex: 0, superDeviceId: null, deviceIp: null, devicePort: numberOf(rank.device_port), backupDeviceIp: null, backupDevicePort: null, hostPort: numberOf(rank.host_port), netLevels }],
    });
  }
  const list = [...servers.values()];
  for (const server of list) server.npus.sort((a, b) => a.npuIndex - b.npuIndex);
  return { mode: superPodIds.length > 0 ? "super-pod" : "ai-server", superPodIds, servers: list, links: a5Links(list) };
}

/** Level 0: a ring through each server's NPUs (a pair for two); level 1: the same local_id of neighbouring servers of a super pod. */
export function a5Links(servers: readonly ServerSpec[]): LinkSpec[] {
  const links: LinkSpec[] = [];
  const hasLayer = (levels: NetLevelSpec[] | undefined, layer: number) => levels?.some((level) => level.netLayer === layer) ?? false;
  for (const server of servers) {
    const dies = server.npus.map((npu) => npu.dies[0]!).filter((die) => hasLayer(die.netLevels, 0));
    const last = dies.length > 2 ? dies.length : dies.length - 1;
    for (let i = 0; i < last; i++) {
      links.push({ kind: "net-layer-0", source: { serverId: server.serverId, deviceId: dies[i]!.deviceId }, target: { serverId: server.serverId, deviceId: dies[(i + 1) % dies.length]!.deviceId } });
    }
  }
  const bySuperPod = new Map<string, ServerSpec[]>();
  for (const server of servers) if (server.superPodId !== null) bySuperPod.set(server.superPodId, [...(bySuperPod.get(server.superPodId) ?? []), server]);
  for (const pod of bySuperPod.values()) {
    for (let s = 0; s + 1 < pod.length; s++) {
      const next = new Map(pod[s + 1]!.npus.map((npu) => [npu.npuIndex, npu.dies[0]!]));
      for (const npu of pod[s]!.npus) {
        const die = npu.dies[0]!;
        const peer = next.get(npu.npuIndex);
        if (peer === undefined || !hasLayer(die.netLevels, 1) || !hasLayer(peer.netLevels, 1)) continue;
        links.push({ kind: "net-layer-1", source: { serverId: pod[s]!.serverId, deviceId: die.deviceId }, target: { serverId: pod[s + 1]!.serverId, deviceId: peer.deviceId } });
      }
    }
  }
  return links;
}
