/**
 * Random edits of "1.0"/"1.2" tables for the incremental validator's property test: the editor's own (applyEdit:
 * fields of a device, a server, a pod or the table, devices and servers added, removed and moved) and what the JSON
 * view does in one go: servers and super pods added, copied (their ids, addresses and ranks repeated) and removed,
 * a device copied from another server.
 */
import fc from "fast-check";
import { applyEdit, type Edit } from "../../rank-table-workspace/edit";
import { isJsonObject, type JsonObject, type JsonValue } from "../model";

/** Replaces `remove` entries of a list at `at` with copies of other entries, fresh ones or junk (RT004). */
export interface ListSplice {
  type: "servers" | "pods";
  at: number;
  remove: number;
  insert: ("copy" | "fresh" | "junk")[];
}

/** A device of another server appended to a server's device list (or put in place of one of its devices). */
export interface DeviceCopy {
  type: "copyDevice";
  server: number;
  from: number;
  replace: boolean;
}

export type V1Edit = Edit | ListSplice | DeviceCopy;

const numbers = ["0", "1", "2", "3", "5", "7", "64", "65", "80", "1023", "16000", "70000", "x", "01", ""];
/** A1/A3 device IPs, two of them partners (backup rules RT050–RT055), and an IPv6 one (RT037). */
const addrs = ["192.168.100.101", "192.168.100.102", "192.168.101.101", "10.0.0.1", "10.0.0.0", "10.0.1.0", "10.0.1.1", "fd00::1", "bad", ""];

const list = (object: JsonObject, key: string): JsonValue[] => (Array.isArray(object[key]) ? (object[key] as JsonValue[]) : []);

/** A server like `source` with ids, addresses and ranks of its own (`n` tells them apart). */
function freshServer(source: JsonObject, n: number): JsonObject {
  const copy = structuredClone(source);
  copy.server_id = `fresh_${n}`;
  copy.host_ip = `172.31.${n % 250}.1`;
  list(copy, "device").forEach((device, i) => {
    if (!isJsonObject(device)) return;
    device.device_ip = `10.200.${n % 250}.${i}`;
    if (device.backup_device_ip !== undefined) device.backup_device_ip = `10.200.${n % 250}.${i ^ 1}`;
    device.rank_id = String(1000 + n * 16 + i);
  });
  return copy;
}

function spliceList(table: JsonObject, edit: ListSplice): JsonValue {
  const key = edit.type === "servers" ? "server_list" : "super_pod_list";
  if (!Array.isArray(table[key])) return table;
  const entries = list(table, key).slice();
  const at = edit.at % (entries.length + 1);
  const inserted = edit.insert.map((kind, i): JsonValue => {
    const source = entries[(at + i * 3) % Math.max(entries.length, 1)];
    if (kind === "junk" || !isJsonObject(source)) return kind === "junk" ? 7 : { server_id: `lone_${i}` };
    if (kind === "copy") return structuredClone(source);
    if (key === "server_list") return freshServer(source, at * 8 + i);
    // A new pod: it lists a server of another pod (RT063) or one nobody has (RT062).
    return { super_pod_id: `pod_${at}_${i}`, server_list: [{ server_id: i % 2 === 0 ? `fresh_${at * 8 + i}` : "node_0" }] };
  });
  entries.splice(at, edit.remove, ...inserted);
  return { ...table, [key]: entries };
}

function copyDevice(table: JsonObject, edit: DeviceCopy): JsonValue {
  const servers = list(table, "server_list");
  const target = servers[edit.server % Math.max(servers.length, 1)];
  const source = servers[edit.from % Math.max(servers.length, 1)];
  if (!isJsonObject(target) || !isJsonObject(source)) return table;
  const from = list(source, "device");
  const device = from[edit.from % Math.max(from.length, 1)];
  if (device === undefined) return table;
  const devices = list(target, "device").slice();
  if (edit.replace && devices.length > 0) devices[edit.server % devices.length] = structuredClone(device);
  else devices.push(structuredClone(device));
  const next = servers.slice();
  next[servers.indexOf(target)] = { ...target, device: devices };
  return { ...table, server_list: next };
}

export function applyV1Edit(table: JsonValue, edit: V1Edit): JsonValue {
  if (edit.type === "copyDevice") return isJsonObject(table) ? copyDevice(table, edit) : table;
  if ("insert" in edit) return isJsonObject(table) ? spliceList(table, edit) : table;
  return applyEdit(table, edit);
}

const splice = (type: ListSplice["type"]) =>
  fc.record({ type: fc.constant(type), at: fc.nat({ max: 5 }), remove: fc.nat({ max: 2 }), insert: fc.array(fc.constantFrom("copy" as const, "fresh" as const, "junk" as const), { maxLength: 3 }) });

export const v1Edit: fc.Arbitrary<V1Edit> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant("set" as const),
      path: fc.record({ server: fc.nat({ max: 3 }), device: fc.nat({ max: 4 }) }),
      field: fc.constantFrom("device_ip", "rank_id", "device_id", "super_device_id", "device_port", "backup_device_ip", "backup_device_port", "host_port"),
      value: fc.option(fc.constantFrom(...numbers, ...addrs), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("set" as const), path: fc.record({ server: fc.nat({ max: 3 }) }), field: fc.constantFrom("server_id", "host_ip"), value: fc.option(fc.constantFrom("s0", "s1", "node_0", ...addrs), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("set" as const), path: fc.record({ pod: fc.nat({ max: 2 }) }), field: fc.constant("super_pod_id"), value: fc.option(fc.constantFrom("0", "1", "x"), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("set" as const), path: fc.constant({}), field: fc.constantFrom("server_count", "status", "version"), value: fc.option(fc.constantFrom("1", "2", "1.0", "1.2", "completed"), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("addDevice" as const), server: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("removeDevice" as const), server: fc.nat({ max: 3 }), device: fc.nat({ max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("addServer" as const), pod: fc.option(fc.nat({ max: 2 }), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("removeServer" as const), server: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("moveServer" as const), server: fc.nat({ max: 3 }), pod: fc.nat({ max: 2 }) }) },
  { weight: 2, arbitrary: splice("servers") },
  { weight: 1, arbitrary: splice("pods") },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("copyDevice" as const), server: fc.nat({ max: 5 }), from: fc.nat({ max: 5 }), replace: fc.boolean() }) },
);
