/**
 * A structural diff between two rank tables: super pods, servers and dies matched by their ids (super_pod_id,
 * server_id, device_id within the server), not by position or text, so moving a server or reformatting the file
 * is not reported as a change of every line.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@/lib/rank-table";

export type DiffEntry =
  | { kind: "field"; scope: "table"; field: string; before: string | undefined; after: string | undefined }
  | { kind: "field"; scope: "server"; serverId: string; field: string; before: string | undefined; after: string | undefined }
  | { kind: "field"; scope: "device"; serverId: string; deviceId: string; field: string; before: string | undefined; after: string | undefined }
  | { kind: "server-added" | "server-removed"; serverId: string; devices: number }
  | { kind: "device-added" | "device-removed"; serverId: string; deviceId: string }
  | { kind: "server-moved"; serverId: string; before: string | undefined; after: string | undefined }
  | { kind: "super-pod-added" | "super-pod-removed"; superPodId: string };

export interface TableDiff {
  entries: DiffEntry[];
  counts: { serversAdded: number; serversRemoved: number; devicesAdded: number; devicesRemoved: number; fieldsChanged: number; serversMoved: number };
}

function scalar(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function keyed(items: JsonValue | undefined, idField: string): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  if (!Array.isArray(items)) return map;
  items.forEach((item, index) => {
    if (!isJsonObject(item)) return;
    let key = scalar(item[idField]) ?? `#${index}`;
    // A duplicated id (an invalid table) still gets an entry of its own.
    for (let n = 2; map.has(key); n++) key = `${scalar(item[idField]) ?? ""}#${n}`;
    map.set(key, item);
  });
  return map;
}

function fieldChanges(before: JsonObject, after: JsonObject, skip: ReadonlySet<string>, emit: (field: string, a: string | undefined, b: string | undefined) => void): void {
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const field of fields) {
    if (skip.has(field)) continue;
    const a = scalar(before[field]);
    const b = scalar(after[field]);
    if (a !== b) emit(field, a, b);
  }
}

function podMembership(table: JsonObject): Map<string, string> {
  const map = new Map<string, string>();
  for (const [podId, pod] of keyed(table.super_pod_list, "super_pod_id")) {
    const members = pod.server_list;
    if (!Array.isArray(members)) continue;
    for (const member of members) if (isJsonObject(member)) {
      const id = scalar(member.server_id);
      if (id !== undefined && !map.has(id)) map.set(id, podId);
    }
  }
  return map;
}

const TABLE_SKIP = new Set(["server_list", "super_pod_list"]);
const SERVER_SKIP = new Set(["device"]);
const NONE = new Set<string>();

export function diffTables(beforeValue: JsonValue | undefined, afterValue: JsonValue | undefined): TableDiff {
  const before = isJsonObject(beforeValue) ? beforeValue : {};
  const after = isJsonObject(afterValue) ? afterValue : {};
  const entries: DiffEntry[] = [];
  fieldChanges(before, after, TABLE_SKIP, (field, a, b) => entries.push({ kind: "field", scope: "table", field, before: a, after: b }));

  const podsBefore = keyed(before.super_pod_list, "super_pod_id");
  const podsAfter = keyed(after.super_pod_list, "super_pod_id");
  for (const id of podsAfter.keys()) if (!podsBefore.has(id)) entries.push({ kind: "super-pod-added", superPodId: id });
  for (const id of podsBefore.keys()) if (!podsAfter.has(id)) entries.push({ kind: "super-pod-removed", superPodId: id });

  const serversBefore = keyed(before.server_list, "server_id");
  const serversAfter = keyed(after.server_list, "server_id");
  const memberBefore = podMembership(before);
  const memberAfter = podMembership(after);
  for (const [serverId, server] of serversAfter) {
    const old = serversBefore.get(serverId);
    if (!old) {
      entries.push({ kind: "server-added", serverId, devices: Array.isArray(server.device) ? server.device.length : 0 });
      continue;
    }
    if (memberBefore.get(serverId) !== memberAfter.get(serverId) && (podsBefore.size > 0 || podsAfter.size > 0)) {
      entries.push({ kind: "server-moved", serverId, before: memberBefore.get(serverId), after: memberAfter.get(serverId) });
    }
    fieldChanges(old, server, SERVER_SKIP, (field, a, b) => entries.push({ kind: "field", scope: "server", serverId, field, before: a, after: b }));
    const devicesBefore = keyed(old.device, "device_id");
    const devicesAfter = keyed(server.device, "device_id");
    for (const [deviceId, device] of devicesAfter) {
      const oldDevice = devicesBefore.get(deviceId);
      if (!oldDevice) entries.push({ kind: "device-added", serverId, deviceId });
      else fieldChanges(oldDevice, device, NONE, (field, a, b) => entries.push({ kind: "field", scope: "device", serverId, deviceId, field, before: a, after: b }));
    }
    for (const deviceId of devicesBefore.keys()) if (!devicesAfter.has(deviceId)) entries.push({ kind: "device-removed", serverId, deviceId });
  }
  for (const [serverId, server] of serversBefore) {
    if (!serversAfter.has(serverId)) entries.push({ kind: "server-removed", serverId, devices: Array.isArray(server.device) ? server.device.length : 0 });
  }

  const counts = { serversAdded: 0, serversRemoved: 0, devicesAdded: 0, devicesRemoved: 0, fieldsChanged: 0, serversMoved: 0 };
  for (const entry of entries) {
    if (entry.kind === "server-added") counts.serversAdded++;
    else if (entry.kind === "server-removed") counts.serversRemoved++;
    else if (entry.kind === "device-added") counts.devicesAdded++;
    else if (entry.kind === "device-removed") counts.devicesRemoved++;
    else if (entry.kind === "field") counts.fieldsChanged++;
    else if (entry.kind === "server-moved") counts.serversMoved++;
  }
  return { entries, counts };
}
