/**
 * Conversion of the legacy layout without `version` (status, group_count, group_list[].instance_list[] with
 * server_id and devices) to version "1.0", where it maps cleanly: one group, every instance naming its server and
 * listing devices that have a device_id.
 */
import type { LocalizedText } from "./messages";
import { isJsonObject, type JsonObject, type JsonValue, type RankTable, type RankTableDevice, type RankTableServer } from "./model";
import { fieldText, type Change } from "./repair";

export type LegacyConversion =
  | { ok: true; table: RankTable; changes: Change[] }
  | { ok: false; reason: LocalizedText };

function refuse(en: string, zh: string): LegacyConversion {
  return { ok: false, reason: { en, zh } };
}

export function isLegacyLayout(table: JsonValue): boolean {
  return isJsonObject(table) && (table.version === undefined || table.version === "") && (table.group_list !== undefined || table.group_count !== undefined);
}

export function convertLegacyTable(table: JsonValue): LegacyConversion {
  if (!isJsonObject(table) || !isLegacyLayout(table)) return refuse("not a legacy (group_list) table", "不是旧版（group_list）格式");
  const groups = table.group_list;
  if (!Array.isArray(groups) || groups.length !== 1 || !isJsonObject(groups[0])) {
    return refuse("the legacy table must have exactly one group in group_list", "group_list 中必须恰好有一个 group");
  }
  const instances = groups[0].instance_list;
  if (!Array.isArray(instances) || instances.length === 0) return refuse("the group has no instance_list", "group 没有 instance_list");

  const servers = new Map<string, RankTableServer>();
  const instanceRanks: (string | undefined)[] = [];
  for (const instance of instances) {
    const serverId = isJsonObject(instance) ? fieldText(instance, "server_id") : undefined;
    const devices = isJsonObject(instance) ? instance.devices : undefined;
    if (serverId === undefined || !Array.isArray(devices) || devices.length === 0) {
      return refuse("every instance needs a server_id and a devices list", "每个 instance 都需要 server_id 和 devices 列表");
    }
    let server = servers.get(serverId);
    if (server === undefined) servers.set(serverId, (server = { server_id: serverId, device: [] }));
    for (const device of devices) {
      const deviceId = isJsonObject(device) ? fieldText(device, "device_id") : undefined;
      if (deviceId === undefined) return refuse("every device needs a device_id", "每个 device 都需要 device_id");
      const converted: RankTableDevice = { device_id: deviceId, rank_id: "" };
      const deviceIp = fieldText(device as JsonObject, "device_ip");
      if (deviceIp !== undefined) converted.device_ip = deviceIp;
      server.device.push(converted);
      // An instance's rank_id is the rank of its device only when the instance has exactly one device.
      instanceRanks.push(devices.length === 1 ? fieldText(instance as JsonObject, "rank_id") : undefined);
    }
  }
  const keepRanks = instanceRanks.every((rank) => rank !== undefined);
  let index = 0;
  for (const server of servers.values()) {
    for (const device of server.device) {
      device.rank_id = keepRanks ? instanceRanks[index]! : String(index);
      index++;
    }
  }
  const status = fieldText(table, "status");
  const converted: RankTable = {
    status: status === "initializing" ? "initializing" : "completed",
    version: "1.0",
    server_count: String(servers.size),
    server_list: [...servers.values()],
  };
  return { ok: true, table: converted, changes: [{ path: "/version", before: undefined, after: "1.0" }] };
}
