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

type Row = { serverId: string; source: JsonObject; values: Partial<Record<GridField, string>>; rank?: number };

function build(entries: Row[], fields: readonly GridField[] = DEVICE_EDIT_FIELDS): TableStructure {
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
      for (const field of fields) values[field] = entry.values[field];
      if (entry.rank === undefined) rows.push({ key: `${index}/${device}`, server: index, device, serverId, values });
      else rows.push({ key: `r${entry.rank}`, server: index, device, serverId, values, rank: entry.rank });
    });
    servers.push(node);
  }
  const structure: TableStructure = { rows, servers, pods: [{ index: -1, superPodId: "", servers }], superPodMode: false };
  if (fields !== DEVICE_EDIT_FIELDS) structure.fields = fields;
  return structure;
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

/** The net_layer 0 instance a "2.0" rank sits in (its AI Server), and its grid values. */
function a5Row(rank: JsonObject, position: number): Row {
  const levels = Array.isArray(rank.level_list) ? rank.level_list.filter(isJsonObject) : [];
  const server = levels.find((level) => level.net_layer === 0);
  const values: Partial<Record<GridField, string>> = {};
  for (const field of A5_EDIT_FIELDS) values[field] = text(rank[field]);
  return { serverId: text(server?.net_instance_id) ?? "", source: rank, values, rank: position };
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
    const next = a5Row(rank, position);
    // A rank moved to another AI Server regroups the rows: derived again.
    if (next.serverId !== row.serverId) return undefined;
    rows[at] = { ...row, values: next.values };
  }
  return { ...previous, rows, a5: { ranks, rowOfRank: before.rowOfRank } };
}

export function a5Structure(table: JsonObject, previous?: TableStructure): TableStructure {
  const ranks = Array.isArray(table.rank_list) ? table.rank_list : [];
  const patched = previous && patchA5(ranks, previous);
  if (patched) return patched;
  const entries: Row[] = [];
  ranks.forEach((rank, position) => {
    if (isJsonObject(rank)) entries.push(a5Row(rank, position));
  });
  const structure = build(entries, A5_EDIT_FIELDS);
  const rowOfRank = new Int32Array(ranks.length).fill(-1);
  structure.rows.forEach((row, index) => (rowOfRank[row.rank!] = index));
  structure.a5 = { ranks, rowOfRank };
  return structure;
}
