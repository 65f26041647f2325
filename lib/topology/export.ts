import type { ClusterSpec, ServerSpec } from "@/lib/inventory/model";
import type { RankTable, RankTableDevice } from "@/lib/rank-table";
import type { A5Rank, A5RankTable } from "@/lib/rank-table/a5-model";

/**
 * The rank table of a whole inventory ("build from inventory"): servers in inventory order, each server's dies in
 * device order, ranks counted from 0 in that order — the same ranks the topology shows as "built from the inventory".
 * Super pod mode writes version "1.2" with super_pod_list; AI Server mode "1.0".
 */
export function rankTableFromInventory(spec: Pick<ClusterSpec, "mode" | "superPodIds" | "servers">): RankTable {
  const superPod = spec.mode === "super-pod";
  let rank = 0;
  const table: RankTable = {
    status: "completed",
    version: superPod ? "1.2" : "1.0",
    server_count: String(spec.servers.length),
    server_list: spec.servers.map((server) => ({
      server_id: server.serverId,
      ...(server.hostIp ? { host_ip: server.hostIp } : {}),
      device: server.npus
        .flatMap((npu) => npu.dies)
        .sort((a, b) => a.deviceId - b.deviceId)
        .map((die) => {
          const device: RankTableDevice = { device_id: String(die.deviceId), rank_id: "" };
          if (superPod && die.superDeviceId !== null) device.super_device_id = String(die.superDeviceId);
          if (die.deviceIp) device.device_ip = die.deviceIp;
          if (die.devicePort !== null) device.device_port = String(die.devicePort);
          if (die.backupDeviceIp) device.backup_device_ip = die.backupDeviceIp;
          if (die.backupDevicePort !== null) device.backup_device_port = String(die.backupDevicePort);
          if (die.hostPort !== null) device.host_port = String(die.hostPort);
          device.rank_id = String(rank++);
          return device;
        }),
    })),
  };
  if (superPod) {
    table.super_pod_list = spec.superPodIds.map((id) => ({
      super_pod_id: id,
      server_list: spec.servers.filter((server) => server.superPodId === id).map((server) => ({ server_id: server.serverId })),
    }));
  }
  return table;
}

/** True when the servers are of the "2.0" generation (Atlas 950): their table is a "2.0" one (a5TableFromInventory). */
export function isA5Inventory(servers: readonly Pick<ServerSpec, "model">[]): boolean {
  return servers.length > 0 && servers.every((server) => server.model === "Atlas 950");
}

/**
 * The "2.0" table of an Atlas 950 inventory (the reverse of lib/topology/import-a5.ts): a rank per NPU, servers in
 * inventory order and NPUs by local_id, ranks counted from 0 in that order, each rank's levels as recorded.
 */
export function a5TableFromInventory(servers: readonly ServerSpec[]): A5RankTable {
  const rankList: A5Rank[] = [];
  for (const server of servers) {
    for (const npu of server.npus) {
      for (const die of npu.dies) {
        const rank: A5Rank = { rank_id: rankList.length, local_id: npu.npuIndex, device_id: die.deviceId, level_list: [] };
        if (die.devicePort !== null) rank.device_port = die.devicePort;
        if (die.hostPort !== null) rank.host_port = die.hostPort;
        rank.level_list = (die.netLevels ?? []).map((level) => ({
          net_layer: level.netLayer,
          net_instance_id: level.netInstanceId,
          net_type: level.netType,
          net_attr: "",
          rank_addr_list: level.addresses.map((address) => ({ addr_type: address.addrType, addr: address.addr, ports: address.ports, ...(address.planeId === null ? {} : { plane_id: address.planeId }) })),
        }));
        rankList.push(rank);
      }
    }
  }
  return { status: "completed", version: "2.0", rank_count: rankList.length, rank_list: rankList };
}
