/**
 * The grid rows and tree of the layouts that have no server_list: the legacy template (servers from its instances,
 * one row per device, ranks as HCCL gives them) and "2.0" (one row per rank of rank_list, grouped into the AI
 * Servers their net_layer 0 instance names). The legacy template is shown as it is (the repair converts it to "1.0"
 * for editing); a "2.0" rank's own fields (A5_EDIT_FIELDS) are edited in the grid, its levels in the JSON view.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { impliedLegacyRanks, readLegacyView } from "@/lib/rank-table/legacy-view";
import { Findings } from "@/lib/rank-table/findings";
import { ViewReader } from "@/lib/rank-table/table-view";
import { A5_EDIT_FIELDS, DEVICE_EDIT_FIELDS, type GridField } from "./edit";
import type { DeviceRow, ServerNode, TableStructure } from "./structure";

type Row = { serverId: string; source: JsonObject; values: Partial<Record<GridField, string>> };

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
      const values: Partial<Record<GridField, string>> = {};
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

/** The net_layer 0 instance a "2.0" rank sits in (its AI Server). */
function a5ServerId(rank: JsonObject): string {
  if (Array.isArray(rank.level_list)) for (const level of rank.level_list) if (isJsonObject(level) && level.net_layer === 0) return text(level.net_instance_id) ?? "";
  return "";
}

/** A "2.0" rank's grid values. */
function a5Values(rank: JsonObject): Partial<Record<GridField, string>> {
  const values: Partial<Record<GridField, string>> = {};
  for (const field of A5_EDIT_FIELDS) values[field] = text(rank[field]);
  return values;
}

/**
 * An edit that replaced this many ranks or fewer (the same objects elsewhere: the edit helpers share untouched ranks)
 * re-derives only their rows; more, and the whole grid is derived again. A one-field edit of a 524,288-rank table
 * then costs a walk over rank_list comparing references instead of rebuilding every row (bench: `editor`).
 */
const PATCH_AT_MOST = 64;

/** Rows of the ranks that changed since `previous`, or undefined when the change is not a few ranks in their places. */
function patchA5(ranks: readonly JsonValue[], previous: TableStructure): TableStructure | undefined {
  const before = previous.a5;
  if (before === undefined || before.ranks.length !== ranks.length) return undefined;
  const changed: number[] = [];
  for (let position = 0; position < ranks.length; position++) {
    if (ranks[position] === before.ranks[position]) continue;
    if (changed.push(position) > PATCH_AT_MOST) return undefined;
  }
  if (changed.length === 0) return { ...previous, a5: { ranks, rowOfRank: before.rowOfRank } };
  const rows = previous.rows.slice();
  for (const position of changed) {
    const rank = ranks[position];
    const at = before.rowOfRank[position]!;
    const row = at >= 0 ? rows[at] : undefined;
    if (!isJsonObject(rank) || row === undefined) return undefined;
    // A rank moved to another AI Server regroups the rows: derived again.
    if (a5ServerId(rank) !== row.serverId) return undefined;
    rows[at] = { ...row, values: a5Values(rank) };
  }
  return { ...previous, rows, a5: { ranks, rowOfRank: before.rowOfRank } };
}

/**
 * The rows of a "2.0" table, grouped by AI Server in the order the servers first appear; each row is made once, from
 * its rank (at 524,288 ranks every object per rank more is half a million more for the collector while the table
 * opens).
 */
export function a5Structure(table: JsonObject, previous?: TableStructure): TableStructure {
  const ranks = Array.isArray(table.rank_list) ? table.rank_list : [];
  const patched = previous && patchA5(ranks, previous);
  if (patched) return patched;
  const byServer = new Map<string, number[]>();
  ranks.forEach((rank, position) => {
    if (!isJsonObject(rank)) return;
    const serverId = a5ServerId(rank);
    const positions = byServer.get(serverId);
    if (positions === undefined) byServer.set(serverId, [position]);
    else positions.push(position);
  });
  const rows: DeviceRow[] = [];
  const servers: ServerNode[] = [];
  const rowOfRank = new Int32Array(ranks.length).fill(-1);
  for (const [serverId, positions] of byServer) {
    const index = servers.length;
    servers.push({ index, serverId, hostIp: undefined, firstRow: rows.length, rowCount: positions.length, source: ranks[positions[0]!] as JsonObject });
    positions.forEach((position, device) => {
      rowOfRank[position] = rows.length;
      rows.push({ key: `r${position}`, server: index, device, serverId, values: a5Values(ranks[position] as JsonObject), rank: position });
    });
  }
  return { rows, servers, pods: [{ index: -1, superPodId: "", servers }], superPodMode: false, fields: A5_EDIT_FIELDS, a5: { ranks, rowOfRank } };
}
