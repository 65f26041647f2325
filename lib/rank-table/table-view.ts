/**
 * A first pass over the parsed value: it checks shapes (RT002 unknown fields, RT003 non-string scalars, RT004 wrong
 * shapes) and produces a flat, typed view of servers, devices and super pods for the rule checks that follow.
 * Values are kept as the strings HCCL would read; an empty string counts as absent.
 */
import type { Findings } from "./findings";
import { JSON_TYPE_NAMES } from "./messages";
import {
  DEVICE_FIELDS,
  GENERATOR_FIELDS,
  ROOT_FIELDS,
  SERVER_FIELDS,
  SUPER_POD_FIELDS,
  SUPER_POD_SERVER_FIELDS,
  isJsonObject,
  scalarToString,
  type JsonObject,
  type JsonValue,
} from "./model";
import { parseWholeNumber } from "./net";
import { childPointer } from "./pointer";

/** Absent, an empty string (which counts as absent) or an empty list. */
function isMissingList(value: JsonValue | undefined): boolean {
  return value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

export interface DeviceView {
  path: string;
  /** Position of the device in document order, over the whole table. */
  order: number;
  server: ServerView;
  deviceId?: string;
  /** `device_id` as a number when it is a string of digits. */
  deviceNumber?: number;
  superDeviceId?: string;
  deviceIp?: string;
  devicePort?: string;
  backupDeviceIp?: string;
  backupDevicePort?: string;
  hostPort?: string;
  rankId?: string;
  /** `rank_id` as a number when it is a string of digits. */
  rankNumber?: number;
}

export interface ServerView {
  path: string;
  index: number;
  serverId?: string;
  hostIp?: string;
  /** True when `device` is absent or an empty list (a value of another shape is RT004 instead). */
  deviceListMissing: boolean;
  devices: DeviceView[];
}

export interface SuperPodEntryView {
  path: string;
  serverId?: string;
}

export interface SuperPodView {
  path: string;
  index: number;
  superPodId?: string;
  /** True when the super pod's `server_list` is absent or an empty list. */
  serverListMissing: boolean;
  entries: SuperPodEntryView[];
}

export interface TableView {
  serverCount?: string;
  /** True when `server_list` is absent or an empty list. */
  serverListMissing: boolean;
  /** The number of entries of `server_list`, whatever their shape. */
  serverEntryCount: number;
  servers: ServerView[];
  devices: DeviceView[];
  /** Undefined when there is no `super_pod_list` list. */
  superPods: SuperPodView[] | undefined;
}

const ROOT_KNOWN = new Set<string>(ROOT_FIELDS);
const SERVER_KNOWN = new Set<string>(SERVER_FIELDS);
const DEVICE_KNOWN = new Set<string>(DEVICE_FIELDS);
const SUPER_POD_KNOWN = new Set<string>(SUPER_POD_FIELDS);
const SUPER_POD_SERVER_KNOWN = new Set<string>(SUPER_POD_SERVER_FIELDS);

export function jsonTypeName(value: JsonValue): keyof typeof JSON_TYPE_NAMES {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as "string" | "number" | "boolean" | "object";
}

export class ViewReader {
  constructor(private readonly findings: Findings) {}

  /** A scalar field as HCCL reads it: a non-empty string, or undefined. Other JSON types are reported. */
  scalar(object: JsonObject, key: string, objectPath: string): string | undefined {
    const value = object[key];
    if (typeof value === "string") return value === "" ? undefined : value;
    if (value === undefined) return undefined;
    const path = childPointer(objectPath, key);
    if (typeof value === "number" || typeof value === "boolean" || value === null) {
      const shown = value === null ? "null" : scalarToString(key, value);
      this.findings.add("RT003", path, { field: key, type: JSON_TYPE_NAMES[jsonTypeName(value)], value: shown });
      return value === null ? undefined : shown;
    }
    this.wrongShape(path, key, value, "string");
    return undefined;
  }

  /** A list field; undefined when absent, or (after an RT004) when it is not a list. */
  list(object: JsonObject, key: string, objectPath: string): JsonValue[] | undefined {
    const value = object[key];
    if (value === undefined || Array.isArray(value)) return value;
    if (value === "") return undefined;
    this.wrongShape(childPointer(objectPath, key), key, value, "array");
    return undefined;
  }

  /** An element that must be an object. */
  object(value: JsonValue, path: string, label: string): JsonObject | undefined {
    if (isJsonObject(value)) return value;
    this.wrongShape(path, label, value, "object");
    return undefined;
  }

  wrongShape(path: string, field: string, value: JsonValue, expected: keyof typeof JSON_TYPE_NAMES): void {
    this.findings.add("RT004", path, { field, expected: JSON_TYPE_NAMES[expected], actual: JSON_TYPE_NAMES[jsonTypeName(value)] });
  }

  unknownFields(object: JsonObject, known: ReadonlySet<string>, objectPath: string): void {
    for (const key of Object.keys(object)) {
      if (known.has(key)) continue;
      const path = childPointer(objectPath, key);
      if (GENERATOR_FIELDS.has(key)) this.findings.addMessage("RT002", "RT002.generator", path, { field: key }, "info");
      else this.findings.add("RT002", path, { field: key });
    }
  }
}

/** Reads everything below the header; `status` and `version` are read (once) by the caller. */
export function readTableView(root: JsonObject, reader: ViewReader): TableView {
  reader.unknownFields(root, ROOT_KNOWN, "");
  const serverList = reader.list(root, "server_list", "");
  const view: TableView = {
    serverCount: reader.scalar(root, "server_count", ""),
    serverListMissing: isMissingList(root.server_list),
    serverEntryCount: serverList?.length ?? 0,
    servers: [],
    devices: [],
    superPods: undefined,
  };
  serverList?.forEach((entry, index) => {
    const path = `/server_list/${index}`;
    const server = reader.object(entry, path, `server_list/${index}`);
    if (server !== undefined) view.servers.push(readServer(reader, server, path, index, view.devices));
  });
  const superPodList = reader.list(root, "super_pod_list", "");
  if (superPodList !== undefined) {
    view.superPods = [];
    superPodList.forEach((entry, index) => {
      const path = `/super_pod_list/${index}`;
      const superPod = reader.object(entry, path, `super_pod_list/${index}`);
      if (superPod !== undefined) view.superPods!.push(readSuperPod(reader, superPod, path, index));
    });
  }
  return view;
}

function readServer(reader: ViewReader, server: JsonObject, path: string, index: number, allDevices: DeviceView[]): ServerView {
  reader.unknownFields(server, SERVER_KNOWN, path);
  const deviceList = reader.list(server, "device", path);
  const view: ServerView = {
    path,
    index,
    serverId: reader.scalar(server, "server_id", path),
    hostIp: reader.scalar(server, "host_ip", path),
    deviceListMissing: isMissingList(server.device),
    devices: [],
  };
  deviceList?.forEach((entry, deviceIndex) => {
    const devicePath = `${path}/device/${deviceIndex}`;
    const device = reader.object(entry, devicePath, `device/${deviceIndex}`);
    if (device === undefined) return;
    reader.unknownFields(device, DEVICE_KNOWN, devicePath);
    const deviceId = reader.scalar(device, "device_id", devicePath);
    const rankId = reader.scalar(device, "rank_id", devicePath);
    const deviceView: DeviceView = {
      path: devicePath,
      order: allDevices.length,
      server: view,
      deviceId,
      deviceNumber: deviceId === undefined ? undefined : parseWholeNumber(deviceId),
      superDeviceId: reader.scalar(device, "super_device_id", devicePath),
      deviceIp: reader.scalar(device, "device_ip", devicePath),
      devicePort: reader.scalar(device, "device_port", devicePath),
      backupDeviceIp: reader.scalar(device, "backup_device_ip", devicePath),
      backupDevicePort: reader.scalar(device, "backup_device_port", devicePath),
      hostPort: reader.scalar(device, "host_port", devicePath),
      rankId,
      rankNumber: rankId === undefined ? undefined : parseWholeNumber(rankId),
    };
    view.devices.push(deviceView);
    allDevices.push(deviceView);
  });
  return view;
}

function readSuperPod(reader: ViewReader, superPod: JsonObject, path: string, index: number): SuperPodView {
  reader.unknownFields(superPod, SUPER_POD_KNOWN, path);
  const serverList = reader.list(superPod, "server_list", path);
  const view: SuperPodView = {
    path,
    index,
    superPodId: reader.scalar(superPod, "super_pod_id", path),
    serverListMissing: isMissingList(superPod.server_list),
    entries: [],
  };
  serverList?.forEach((entry, entryIndex) => {
    const entryPath = `${path}/server_list/${entryIndex}`;
    const member = reader.object(entry, entryPath, `server_list/${entryIndex}`);
    if (member === undefined) return;
    reader.unknownFields(member, SUPER_POD_SERVER_KNOWN, entryPath);
    view.entries.push({ path: entryPath, serverId: reader.scalar(member, "server_id", entryPath) });
  });
  return view;
}
