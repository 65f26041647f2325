/**
 * Conversion of the legacy layout without `version` (status, group_count, group_list[].instance_list[] with
 * server_id and devices; see legacy-view.ts for its two flavours) to version "1.0" with explicit ranks: every
 * device, its address, port and the rank HCCL would give it are kept.
 *
 * - Ranks: the MindSpore flavour's `rank_id` per instance when every instance has a distinct one; otherwise (and
 *   always in the TensorFlow flavour, whose parser ignores rank_id) the ranks HCCL numbers itself.
 * - Server order: by lowest rank (in the TensorFlow flavour, HCCL's order: sorted by server_id), devices by rank, so
 *   that ranks ascend through server_list as "1.0" asks (RT048).
 * - host_ip: the server_id when it is an IPv4 address, since the generators of legacy tables write the host's
 *   address there (MindSpore `hccl_tools.py`: `server_id = socket.gethostbyname(socket.gethostname())`).
 */
import { Findings } from "./findings";
import { impliedLegacyRanks, readLegacyView, type LegacyDeviceView } from "./legacy-view";
import type { LocalizedText } from "./messages";
import { isJsonObject, type JsonValue, type Lang, type RankTable, type RankTableDevice, type RankTableServer } from "./model";
import { isPlainIPv4 } from "./net";
import type { Change, RepairResult } from "./repair";
import { ViewReader } from "./table-view";

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
  const view = readLegacyView(table, new ViewReader(new Findings()));
  if (view.groups.length !== 1) return refuse("the legacy table must have exactly one group in group_list", "group_list 中必须恰好有一个 group");
  if (view.instances.length === 0) return refuse("the group has no instance_list", "group 没有 instance_list");
  if (view.instances.some((instance) => instance.serverId === undefined || instance.devices.length === 0)) {
    return refuse("every instance needs a server_id and a devices list", "每个 instance 都需要 server_id 和 devices 列表");
  }
  if (view.devices.some((device) => device.deviceNumber === undefined)) return refuse("every device needs a whole-number device_id", "每个 device 都需要整数 device_id");

  const ranks = conversionRanks(view.devices, impliedLegacyRanks(view));
  const byServer = new Map<string, { device: LegacyDeviceView; rank: number }[]>();
  for (const device of view.devices) {
    const serverId = device.instance.serverId!;
    const list = byServer.get(serverId) ?? [];
    list.push({ device, rank: ranks[device.order]! });
    byServer.set(serverId, list);
  }
  const entries = [...byServer.entries()];
  // Servers by their lowest rank, so that ranks ascend through server_list (HCCL's own order in the TensorFlow flavour).
  const lowest = (list: { rank: number }[]) => list.reduce((min, item) => Math.min(min, item.rank), Infinity);
  entries.sort(([, a], [, b]) => lowest(a) - lowest(b));

  const changes: Change[] = [{ path: "/version", before: undefined, after: "1.0" }];
  const serverList: RankTableServer[] = entries.map(([serverId, list], serverIndex) => {
    const server: RankTableServer = { server_id: serverId, device: [] };
    if (isPlainIPv4(serverId)) server.host_ip = serverId;
    list.sort((a, b) => a.rank - b.rank);
    list.forEach(({ device, rank }, deviceIndex) => {
      const converted: RankTableDevice = { device_id: device.deviceId!, rank_id: String(rank) };
      if (device.deviceIp !== undefined) converted.device_ip = device.deviceIp;
      if (device.devicePort !== undefined) converted.device_port = device.devicePort;
      server.device.push(converted);
      if (device.instance.rankId !== converted.rank_id) {
        changes.push({ path: `/server_list/${serverIndex}/device/${deviceIndex}/rank_id`, before: device.instance.rankId, after: converted.rank_id });
      }
    });
    return server;
  });
  const status = typeof table.status === "string" && table.status === "initializing" ? "initializing" : "completed";
  const converted: RankTable = { status, version: "1.0", server_count: String(serverList.length), server_list: serverList };
  return { ok: true, table: converted, changes };
}

/**
 * The conversion as one of the editor's repairs (same shape as renumberRanks & co.): a table that cannot be
 * converted throws a RangeError saying why, in the user's language.
 */
export function convertLegacyRepair(table: JsonValue, lang: Lang = "en"): RepairResult {
  const conversion = convertLegacyTable(table);
  if (!conversion.ok) throw new RangeError(conversion.reason[lang]);
  return { table: conversion.table as unknown as JsonValue, changes: conversion.changes };
}

/** The table's own ranks when each device has a distinct one; otherwise 0…N−1 in device order. */
function conversionRanks(devices: readonly LegacyDeviceView[], implied: readonly (number | undefined)[]): number[] {
  const seen = new Set<number>();
  const usable = implied.every((rank) => rank !== undefined && rank < devices.length && !seen.has(rank) && seen.add(rank));
  return usable ? (implied as number[]) : devices.map((device) => device.order);
}
