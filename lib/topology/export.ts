import type { ClusterSpec } from "@/lib/inventory/model";
import type { RankTable, RankTableDevice } from "@/lib/rank-table";

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
