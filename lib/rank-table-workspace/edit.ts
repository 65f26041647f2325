/**
 * Edits of a rank table in the visual editor, as data: each operation is applied by `applyEdit` to a parsed table
 * and returns a new table that shares every untouched server and device with the old one (so keeping the old one
 * for undo costs almost nothing, and a 16,384-rank table is not copied per keystroke). The same operations run in
 * the validation worker, which keeps its own copy of the table in step without receiving it again.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { A5_NUMBER_FIELDS } from "@/lib/rank-table/a5-model";

export const DEVICE_EDIT_FIELDS = ["device_id", "super_device_id", "device_ip", "device_port", "backup_device_ip", "backup_device_port", "host_port", "rank_id"] as const;
export type DeviceField = (typeof DEVICE_EDIT_FIELDS)[number];
/** The fields of a "2.0" rank the grid edits (lib/rank-table/a5-model.ts); its levels are edited in the JSON view. */
export const A5_EDIT_FIELDS = ["rank_id", "local_id", "device_id", "device_port", "host_port"] as const;
export type GridField = DeviceField | (typeof A5_EDIT_FIELDS)[number];

export type Edit =
  /** Sets (value) or removes (undefined) a field of a device, a server, a super pod or the table itself. */
  | { type: "set"; path: { server: number; device: number } | { server: number } | { pod: number } | Record<string, never>; field: string; value: string | undefined }
  | { type: "addServer"; pod?: number | undefined }
  /** Inserts a given server (e.g. one a merge brings over) into a super pod, or at the end. */
  | { type: "insertServer"; server: JsonObject; pod?: number | undefined }
  | { type: "removeServer"; server: number }
  | { type: "moveServer"; server: number; pod: number }
  | { type: "addDevice"; server: number }
  | { type: "removeDevice"; server: number; device: number }
  /** Sets (value) or removes (undefined) a field of a "2.0" rank: a whole number is written as a JSON number there. */
  | { type: "setRank"; rank: number; field: string; value: string | undefined }
  /** Removes a "2.0" rank; rank_count follows when it counted the list. */
  | { type: "removeRank"; rank: number }
  | { type: "replace"; table: JsonValue };

/** Sets a key without the `__proto__` setter. */
function put(object: JsonObject, key: string, value: JsonValue | undefined): JsonObject {
  const copy: JsonObject = {};
  for (const name of Object.keys(object)) if (name !== key) Object.defineProperty(copy, name, { value: object[name], enumerable: true, writable: true, configurable: true });
  if (value !== undefined) {
    // Keep the key's place when it existed.
    if (Object.hasOwn(object, key)) {
      const ordered: JsonObject = {};
      for (const name of Object.keys(object)) Object.defineProperty(ordered, name, { value: name === key ? value : object[name], enumerable: true, writable: true, configurable: true });
      return ordered;
    }
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function list(object: JsonObject, key: string): JsonValue[] {
  const value = object[key];
  return Array.isArray(value) ? value : [];
}

function text(value: JsonValue | undefined): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function updateServer(table: JsonObject, server: number, update: (server: JsonObject) => JsonObject): JsonObject {
  const servers = list(table, "server_list");
  const current = servers[server];
  if (!isJsonObject(current)) return table;
  const next = servers.slice();
  next[server] = update(current);
  return put(table, "server_list", next);
}

/** The index of the super pod that lists a server id, or -1. */
export function podOfServer(table: JsonObject, serverId: string | undefined): number {
  if (serverId === undefined) return -1;
  return list(table, "super_pod_list").findIndex((pod) => isJsonObject(pod) && list(pod, "server_list").some((member) => isJsonObject(member) && text(member.server_id) === serverId));
}

function withoutPodMember(table: JsonObject, serverId: string | undefined): JsonObject {
  if (serverId === undefined || !Array.isArray(table.super_pod_list)) return table;
  return put(
    table,
    "super_pod_list",
    table.super_pod_list.map((pod) => {
      if (!isJsonObject(pod)) return pod;
      const members = list(pod, "server_list");
      const kept = members.filter((member) => !(isJsonObject(member) && text(member.server_id) === serverId));
      return kept.length === members.length ? pod : put(pod, "server_list", kept);
    }),
  );
}

function withPodMember(table: JsonObject, pod: number, serverId: string): JsonObject {
  const pods = list(table, "super_pod_list");
  const target = pods[pod];
  if (!isJsonObject(target)) return table;
  const next = pods.slice();
  next[pod] = put(target, "server_list", [...list(target, "server_list"), { server_id: serverId }]);
  return put(table, "super_pod_list", next);
}

/** The super pod (its index) of each listed server id, the first pod that lists it, as podOfServer finds it. */
function podsByServerId(table: JsonObject): Map<string, number> {
  const pods = new Map<string, number>();
  list(table, "super_pod_list").forEach((pod, index) => {
    if (!isJsonObject(pod)) return;
    for (const member of list(pod, "server_list")) {
      const serverId = isJsonObject(member) ? text(member.server_id) : undefined;
      if (serverId !== undefined && !pods.has(serverId)) pods.set(serverId, index);
    }
  });
  return pods;
}

/**
 * Where a server of a super pod goes in server_list: after the pod's last server (pods stay contiguous). One map of
 * the pods' members, not a search of every pod per server: a 524,288-die table has 32,768 servers.
 */
function insertionIndex(table: JsonObject, pod: number): number {
  const servers = list(table, "server_list");
  const pods = podsByServerId(table);
  const podAt = (server: JsonValue) => (isJsonObject(server) ? (pods.get(text(server.server_id) ?? "") ?? -1) : -1);
  let last = -1;
  servers.forEach((server, index) => {
    if (podAt(server) === pod) last = index;
  });
  if (last >= 0) return last + 1;
  // An empty pod: after the servers of the pods before it.
  for (let previous = pod - 1; previous >= 0; previous--) {
    servers.forEach((server, index) => {
      if (last < 0 && podAt(server) === previous) last = index;
    });
  }
  return servers.length;
}

function uniqueServerId(table: JsonObject): string {
  const taken = new Set(list(table, "server_list").map((server) => (isJsonObject(server) ? text(server.server_id) : undefined)));
  for (let n = taken.size; ; n++) if (!taken.has(`new_server_${n}`)) return `new_server_${n}`;
}

function countDevices(table: JsonObject): number {
  return list(table, "server_list").reduce<number>((sum, server) => sum + (isJsonObject(server) ? list(server, "device").length : 0), 0);
}

/** Applies one edit; returns the same object when nothing changed. */
export function applyEdit(table: JsonValue, edit: Edit): JsonValue {
  if (edit.type === "replace") return edit.table;
  if (!isJsonObject(table)) return table;
  switch (edit.type) {
    case "set": {
      const { path, field, value } = edit;
      if ("device" in path) {
        return updateServer(table, path.server, (server) => {
          const devices = list(server, "device");
          const device = devices[path.device];
          if (!isJsonObject(device)) return server;
          const next = devices.slice();
          next[path.device] = put(device, field, value);
          return put(server, "device", next);
        });
      }
      if ("server" in path) {
        const servers = list(table, "server_list");
        const before = isJsonObject(servers[path.server]) ? text((servers[path.server] as JsonObject).server_id) : undefined;
        let next = updateServer(table, path.server, (server) => put(server, field, value));
        // Renaming a server renames it in its super pod too.
        if (field === "server_id" && before !== undefined && value !== undefined) {
          const pod = podOfServer(table, before);
          if (pod >= 0) {
            const pods = list(next, "super_pod_list").slice();
            const target = pods[pod] as JsonObject;
            pods[pod] = put(target, "server_list", list(target, "server_list").map((member) => (isJsonObject(member) && text(member.server_id) === before ? put(member, "server_id", value) : member)));
            next = put(next, "super_pod_list", pods);
          }
        }
        return next;
      }
      if ("pod" in path) {
        const pods = list(table, "super_pod_list");
        const pod = pods[path.pod];
        if (!isJsonObject(pod)) return table;
        const next = pods.slice();
        next[path.pod] = put(pod, field, value);
        return put(table, "super_pod_list", next);
      }
      return put(table, field, value);
    }
    case "addServer": {
      const servers = list(table, "server_list");
      const template = [...servers].reverse().find(isJsonObject);
      const width = template ? list(template, "device").length || 8 : 8;
      const serverId = uniqueServerId(table);
      let rank = countDevices(table);
      const device: JsonObject[] = [];
      for (let id = 0; id < width; id++) device.push({ device_id: String(id), rank_id: String(rank++) });
      return applyEdit(table, { type: "insertServer", server: { server_id: serverId, device }, pod: edit.pod });
    }
    case "insertServer": {
      const servers = list(table, "server_list");
      const serverId = text(edit.server.server_id) ?? uniqueServerId(table);
      const at = edit.pod === undefined ? servers.length : insertionIndex(table, edit.pod);
      const next = put(table, "server_list", [...servers.slice(0, at), edit.server, ...servers.slice(at)]);
      return edit.pod === undefined ? next : withPodMember(next, edit.pod, serverId);
    }
    case "removeServer": {
      const servers = list(table, "server_list");
      const server = servers[edit.server];
      if (server === undefined) return table;
      const next = put(table, "server_list", servers.filter((_, index) => index !== edit.server));
      return withoutPodMember(next, isJsonObject(server) ? text(server.server_id) : undefined);
    }
    case "moveServer": {
      const servers = list(table, "server_list");
      const server = servers[edit.server];
      if (!isJsonObject(server)) return table;
      const serverId = text(server.server_id);
      if (serverId === undefined || podOfServer(table, serverId) === edit.pod) return table;
      let next = withoutPodMember(table, serverId);
      next = put(next, "server_list", servers.filter((_, index) => index !== edit.server));
      const at = insertionIndex(next, edit.pod);
      const rest = list(next, "server_list");
      next = put(next, "server_list", [...rest.slice(0, at), server, ...rest.slice(at)]);
      return withPodMember(next, edit.pod, serverId);
    }
    case "addDevice":
      return updateServer(table, edit.server, (server) => {
        const devices = list(server, "device");
        const ids = devices.map((device) => (isJsonObject(device) ? Number(text(device.device_id)) : NaN)).filter(Number.isFinite);
        const id = ids.length ? Math.max(...ids) + 1 : 0;
        return put(server, "device", [...devices, { device_id: String(id), rank_id: String(countDevices(table)) }]);
      });
    case "removeDevice":
      return updateServer(table, edit.server, (server) => put(server, "device", list(server, "device").filter((_, index) => index !== edit.device)));
    case "setRank": {
      const ranks = list(table, "rank_list");
      const rank = ranks[edit.rank];
      if (!isJsonObject(rank)) return table;
      const next = ranks.slice();
      // "2.0" wants JSON numbers (A5 reference); anything else stays the text typed, for the validator to report (RT103).
      const value = edit.value !== undefined && A5_NUMBER_FIELDS.has(edit.field) && /^\d{1,9}$/.test(edit.value) ? Number(edit.value) : edit.value;
      next[edit.rank] = put(rank, edit.field, value);
      return put(table, "rank_list", next);
    }
    case "removeRank": {
      const ranks = list(table, "rank_list");
      if (ranks[edit.rank] === undefined) return table;
      const next = put(table, "rank_list", ranks.filter((_, index) => index !== edit.rank));
      return table.rank_count === ranks.length ? put(next, "rank_count", ranks.length - 1) : next;
    }
  }
}

/** Undo/redo over table snapshots (cheap thanks to shared structure). */
export interface History {
  past: JsonValue[];
  present: JsonValue;
  future: JsonValue[];
}

export const HISTORY_LIMIT = 500;

export function startHistory(table: JsonValue): History {
  return { past: [], present: table, future: [] };
}

export function pushHistory(history: History, next: JsonValue): History {
  if (next === history.present) return history;
  const past = history.past.length >= HISTORY_LIMIT ? history.past.slice(1) : history.past.slice();
  past.push(history.present);
  return { past, present: next, future: [] };
}

export function undo(history: History): History {
  const previous = history.past[history.past.length - 1];
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo(history: History): History {
  const next = history.future[0];
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: history.future.slice(1) };
}
