/**
 * Three-way merge for a conflicting save: the changes I made since the revision I started from (base → mine) are
 * replayed onto the revision someone else saved (theirs), matched by ids like the structural diff. A field that
 * both changed to different values is a conflict; mine is kept there, and the conflict is listed so the user can
 * look before saving.
 */
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { diffTables, type DiffEntry } from "./diff";
import { applyEdit } from "./edit";

export interface MergeResult {
  table: JsonValue;
  applied: number;
  conflicts: Extract<DiffEntry, { kind: "field" }>[];
}

function findServer(table: JsonObject, serverId: string): number {
  const servers = table.server_list;
  return Array.isArray(servers) ? servers.findIndex((server) => isJsonObject(server) && String(server.server_id ?? "") === serverId) : -1;
}

function findDevice(table: JsonObject, server: number, deviceId: string): number {
  const entry = (table.server_list as JsonValue[])[server];
  const devices = isJsonObject(entry) ? entry.device : undefined;
  return Array.isArray(devices) ? devices.findIndex((device) => isJsonObject(device) && String(device.device_id ?? "") === deviceId) : -1;
}

function serverOf(table: JsonValue, serverId: string): JsonObject | undefined {
  if (!isJsonObject(table) || !Array.isArray(table.server_list)) return undefined;
  return table.server_list.find((server): server is JsonObject => isJsonObject(server) && String(server.server_id ?? "") === serverId);
}

function podIndex(table: JsonObject, superPodId: string | undefined): number {
  return Array.isArray(table.super_pod_list) ? table.super_pod_list.findIndex((pod) => isJsonObject(pod) && String(pod.super_pod_id ?? "") === superPodId) : -1;
}

export function mergeTables(base: JsonValue, mine: JsonValue, theirs: JsonValue): MergeResult {
  const ours = diffTables(base, mine);
  const their = diffTables(base, theirs);
  const theirFields = new Map<string, string | undefined>();
  for (const entry of their.entries) if (entry.kind === "field") theirFields.set(fieldKey(entry), entry.after);
  let table: JsonValue = cloneJson(theirs);
  let applied = 0;
  const conflicts: MergeResult["conflicts"] = [];
  for (const entry of ours.entries) {
    if (!isJsonObject(table)) break;
    const current: JsonObject = table;
    let next: JsonValue = table;
    if (entry.kind === "field") {
      const key = fieldKey(entry);
      if (theirFields.has(key) && theirFields.get(key) !== entry.after) conflicts.push(entry);
      if (entry.scope === "table") next = applyEdit(current, { type: "set", path: {}, field: entry.field, value: entry.after });
      else {
        const server = findServer(current, entry.serverId);
        if (server < 0) continue;
        if (entry.scope === "server") next = applyEdit(current, { type: "set", path: { server }, field: entry.field, value: entry.after });
        else {
          const device = findDevice(current, server, entry.deviceId);
          if (device < 0) continue;
          next = applyEdit(current, { type: "set", path: { server, device }, field: entry.field, value: entry.after });
        }
      }
    } else if (entry.kind === "server-removed") {
      const server = findServer(current, entry.serverId);
      if (server >= 0) next = applyEdit(current, { type: "removeServer", server });
    } else if (entry.kind === "server-added") {
      const added = serverOf(mine, entry.serverId);
      if (added && findServer(current, entry.serverId) < 0) {
        const pod = podIndex(current, podOfId(mine, entry.serverId));
        next = applyEdit(current, { type: "insertServer", server: cloneJson(added) as JsonObject, pod: pod >= 0 ? pod : undefined });
      }
    } else if (entry.kind === "device-removed") {
      const server = findServer(current, entry.serverId);
      const device = server < 0 ? -1 : findDevice(current, server, entry.deviceId);
      if (device >= 0) next = applyEdit(current, { type: "removeDevice", server, device });
    } else if (entry.kind === "device-added") {
      const server = findServer(current, entry.serverId);
      const source = serverOf(mine, entry.serverId);
      const device = Array.isArray(source?.device) ? source.device.find((d) => isJsonObject(d) && String(d.device_id ?? "") === entry.deviceId) : undefined;
      if (server >= 0 && device !== undefined && findDevice(current, server, entry.deviceId) < 0) {
        const servers = (current.server_list as JsonValue[]).slice();
        const target = servers[server] as JsonObject;
        servers[server] = { ...target, device: [...(Array.isArray(target.device) ? target.device : []), cloneJson(device)] };
        next = { ...current, server_list: servers };
      }
    } else if (entry.kind === "server-moved") {
      const server = findServer(current, entry.serverId);
      const pod = podIndex(current, entry.after);
      if (server >= 0 && pod >= 0) next = applyEdit(current, { type: "moveServer", server, pod });
    } else continue;
    if (next !== table) applied++;
    table = next;
  }
  return { table, applied, conflicts };
}

function podOfId(table: JsonValue, serverId: string): string | undefined {
  if (!isJsonObject(table) || !Array.isArray(table.super_pod_list)) return undefined;
  for (const pod of table.super_pod_list) {
    if (isJsonObject(pod) && Array.isArray(pod.server_list) && pod.server_list.some((m) => isJsonObject(m) && String(m.server_id ?? "") === serverId)) return String(pod.super_pod_id ?? "");
  }
  return undefined;
}

function fieldKey(entry: Extract<DiffEntry, { kind: "field" }>): string {
  if (entry.scope === "table") return `/${entry.field}`;
  if (entry.scope === "server") return `${entry.serverId}/${entry.field}`;
  return `${entry.serverId}/${entry.deviceId}/${entry.field}`;
}
