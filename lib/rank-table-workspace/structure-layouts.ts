/**
 * The grid rows and tree of the layouts that have no server_list: the legacy template (servers from its instances,
 * one row per device, ranks as HCCL gives them) and "2.0" (one row per rank of rank_list, grouped into the AI
 * Servers their net_layer 0 instance names). The grid shows them as they are; edits address server_list, so they
 * change nothing here: the legacy template is converted to "1.0" first (the repair), "2.0" is edited in the JSON view.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { impliedLegacyRanks, readLegacyView } from "@/lib/rank-table/legacy-view";
import { Findings } from "@/lib/rank-table/findings";
import { ViewReader } from "@/lib/rank-table/table-view";
import { DEVICE_EDIT_FIELDS, type DeviceField } from "./edit";
import type { DeviceRow, ServerNode, TableStructure } from "./structure";

type Row = { serverId: string; source: JsonObject; values: Partial<Record<DeviceField, string>> };

function build(entries: Row[]): TableStructure {
  const rows: DeviceRow[] = [];
  const servers: ServerNode[] = [];
  const byServer = new Map<string, Row[]>();
  for (const entry of entries) {
    const list = byServer.get(entry.serverId);
    if (list === undefined) byServer.set(entry.serverId, [entry]);
    else list.push(entry);
  }
  for (const [serverId, list] of byServer) {
    const index = servers.length;
    const node: ServerNode = { index, serverId, hostIp: undefined, firstRow: rows.length, rowCount: list.length, source: list[0]!.source };
    list.forEach((entry, device) => {
      const values = {} as Record<DeviceField, string | undefined>;
      for (const field of DEVICE_EDIT_FIELDS) values[field] = entry.values[field];
      rows.push({ key: `${index}/${device}`, server: index, device, serverId, values });
    });
    servers.push(node);
  }
  return { rows, servers, pods: [{ index: -1, superPodId: "", servers }], superPodMode: false };
}

const text = (value: JsonValue | undefined) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined);

export function legacyStructure(table: JsonObject): TableStructure {
  const view = readLegacyView(table, new ViewReader(new Findings()));
  const ranks = impliedLegacyRanks(view);
  return build(view.devices.map((device) => ({
    serverId: device.instance.serverId ?? "",
    source: table,
    values: { device_id: device.deviceId, device_ip: device.deviceIp, device_port: device.devicePort, rank_id: ranks[device.order]?.toString() },
  })));
}

export function a5Structure(table: JsonObject): TableStructure {
  const ranks = Array.isArray(table.rank_list) ? table.rank_list.filter(isJsonObject) : [];
  return build(ranks.map((rank) => {
    const levels = Array.isArray(rank.level_list) ? rank.level_list.filter(isJsonObject) : [];
    const server = levels.find((level) => level.net_layer === 0);
    return {
      serverId: text(server?.net_instance_id) ?? "",
      source: rank,
      values: { device_id: text(rank.device_id), device_port: text(rank.device_port), host_port: text(rank.host_port), rank_id: text(rank.rank_id) },
    };
  }));
}
