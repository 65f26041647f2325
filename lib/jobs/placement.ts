import { dieNodeId } from "@/lib/topology/inventory-index";
import type { PlacedRank, PlacementSummary, RankEntry } from "./model";

/** A die of the inventory, as placement needs it. */
export interface InventoryDie {
  serverId: string;
  hostIp: string | null;
  deviceId: number;
  deviceIp: string | null;
}

/**
 * Puts each rank of a job on a die of the inventory. The server is found by `server_id` (the inventory's server id),
 * else by host IP (the Ascend Operator writes the node's IP as `server_id`, and `host_ip` beside it: MindCluster
 * component/ascend-operator/pkg/ranktable/common/server.go); the die inside it by `device_id`. A rank whose server
 * is unknown is still placed when its `device_ip` names exactly one die (device IPs are unique in a cluster). What
 * does not match is kept with its reason, in table order.
 */
export function placeRanks<D extends InventoryDie>(entries: readonly RankEntry[], dies: readonly D[]): PlacedRank[] {
  const byServer = new Map<string, Map<number, D>>();
  const serverOfHost = new Map<string, string>();
  const byDeviceIp = new Map<string, D | null>();
  for (const die of dies) {
    let server = byServer.get(die.serverId);
    if (!server) byServer.set(die.serverId, (server = new Map()));
    server.set(die.deviceId, die);
    if (die.hostIp && !serverOfHost.has(die.hostIp)) serverOfHost.set(die.hostIp, die.serverId);
    // An IP on two dies identifies neither.
    if (die.deviceIp) byDeviceIp.set(die.deviceIp, byDeviceIp.has(die.deviceIp) ? null : die);
  }
  const serverOf = (entry: RankEntry): string | null => {
    for (const key of [entry.serverId, entry.hostIp]) {
      if (key === null) continue;
      if (byServer.has(key)) return key;
      const viaHost = serverOfHost.get(key);
      if (viaHost) return viaHost;
    }
    return null;
  };
  return entries.map((entry): PlacedRank => {
    const none = { dieId: null, match: null, deviceIpDiffers: false } as const;
    if (entry.rank === null) return { ...entry, ...none, unmatched: "no-rank" };
    const serverId = serverOf(entry);
    const die = serverId !== null && entry.deviceId !== null ? byServer.get(serverId)?.get(entry.deviceId) : undefined;
    if (die) {
      return {
        ...entry,
        dieId: dieNodeId(die.serverId, die.deviceId),
        match: "server-and-device",
        unmatched: null,
        deviceIpDiffers: entry.deviceIp !== null && die.deviceIp !== null && entry.deviceIp !== die.deviceIp,
      };
    }
    const byIp = entry.deviceIp ? byDeviceIp.get(entry.deviceIp) : undefined;
    if (byIp) return { ...entry, dieId: dieNodeId(byIp.serverId, byIp.deviceId), match: "device-ip", unmatched: null, deviceIpDiffers: false };
    return { ...entry, ...none, unmatched: serverId === null ? "unknown-server" : "unknown-device" };
  });
}

export function summarizePlacement(placed: readonly PlacedRank[]): PlacementSummary {
  const servers = new Set<string>();
  let matched = 0;
  for (const rank of placed) {
    if (rank.dieId === null) continue;
    matched++;
    servers.add(rank.dieId.slice(0, rank.dieId.lastIndexOf("/d")));
  }
  return { ranks: placed.length, placed: matched, unmatched: placed.length - matched, servers: servers.size };
}

/** The topology's die id (`<server>/d<device>`) → the fault events' die key (`<server>/<device>`, target key without `die:`). */
export function faultDieKey(dieId: string): string {
  const at = dieId.lastIndexOf("/d");
  return `${dieId.slice(0, at)}/${dieId.slice(at + 2)}`;
}

/** The fault events' die key → the topology's die id. */
export function topologyDieId(dieKey: string): string {
  const at = dieKey.lastIndexOf("/");
  return `${dieKey.slice(0, at)}/d${dieKey.slice(at + 1)}`;
}
