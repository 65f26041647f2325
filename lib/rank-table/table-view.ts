/**
 * A first pass over the parsed value: it checks shapes (RT002 unknown fields, RT003 non-string scalars, RT004 wrong
 * shapes) and produces a flat, typed view of servers, devices and super pods for the rule checks that follow.
 * Values are kept as the strings HCCL would read (an empty string counts as absent), plus the parsed forms the
 * rules compare (numbers, address keys), computed once here.
 *
 * This pass runs for every device of tables with 131,072 ranks, so it reads fields by name (not by a computed
 * key), builds pointers only when a finding needs one, and allocates one object per device.
 */
import { Findings } from "./findings";
import type { ReportLimits } from "../report-limits";
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
import { addressKey, parseWholeNumber, type AddressKey } from "./net";
import { childPointer } from "./pointer";

/** Anything with a JSON Pointer; findings about its fields are placed below it. */
interface Located {
  readonly path: string;
}

export class ServerView implements Located {
  serverId: string | undefined = undefined;
  hostIp: string | undefined = undefined;
  /** True when `device` is absent or an empty list (a value of another shape is RT004 instead). */
  deviceListMissing = false;
  readonly devices: DeviceView[] = [];

  constructor(
    /** Not readonly: the editor's incremental validator keeps a view when servers before it are added or removed. */
    public path: string,
    /** Position in server_list. */
    public index: number,
  ) {}
}

export class DeviceView implements Located {
  deviceId: string | undefined = undefined;
  /** `device_id` as a number when it is a string of digits. */
  deviceNumber: number | undefined = undefined;
  superDeviceId: string | undefined = undefined;
  deviceIp: string | undefined = undefined;
  /** Key of `device_ip` when it is a valid address. */
  deviceIpKey: AddressKey | undefined = undefined;
  devicePort: string | undefined = undefined;
  backupDeviceIp: string | undefined = undefined;
  /** Key of `backup_device_ip` when it is a valid address. */
  backupDeviceIpKey: AddressKey | undefined = undefined;
  backupDevicePort: string | undefined = undefined;
  hostPort: string | undefined = undefined;
  rankId: string | undefined = undefined;
  /** `rank_id` as a number when it is a string of digits. */
  rankNumber: number | undefined = undefined;

  constructor(
    readonly server: ServerView,
    /** Position in its server's device list. */
    readonly index: number,
    /** Position in document order, over the whole table. */
    readonly order: number,
  ) {}

  get path(): string {
    return `${this.server.path}/device/${this.index}`;
  }
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

/** Absent, an empty string (which counts as absent) or an empty list. */
function isMissingList(value: JsonValue | undefined): boolean {
  return value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

export class ViewReader {
  constructor(private readonly findings: Findings) {}

  /** A scalar field as HCCL reads it: a non-empty string, or undefined. Other JSON types are reported. */
  scalar(value: JsonValue | undefined, key: string, owner: Located): string | undefined {
    if (typeof value === "string") return value === "" ? undefined : value;
    if (value === undefined) return undefined;
    const path = childPointer(owner.path, key);
    if (typeof value === "number" || typeof value === "boolean" || value === null) {
      const shown = value === null ? "null" : scalarToString(key, value);
      this.findings.add("RT003", path, { field: key, type: JSON_TYPE_NAMES[jsonTypeName(value)], value: shown });
      return value === null ? undefined : shown;
    }
    this.wrongShape(path, key, value, "string");
    return undefined;
  }

  /** A list field; undefined when absent, or (after an RT004) when it is not a list. */
  list(value: JsonValue | undefined, key: string, owner: Located): JsonValue[] | undefined {
    if (value === undefined || Array.isArray(value)) return value;
    if (value === "") return undefined;
    this.wrongShape(childPointer(owner.path, key), key, value, "array");
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

  unknownFields(object: JsonObject, known: ReadonlySet<string>, owner: Located): void {
    // for…in instead of Object.keys: no array per object. Parsed objects have only own, enumerable keys.
    for (const key in object) {
      if (known.has(key)) continue;
      const path = childPointer(owner.path, key);
      if (GENERATOR_FIELDS.has(key)) this.findings.addMessage("RT002", "RT002.generator", path, { field: key }, "info");
      else this.findings.add("RT002", path, { field: key });
    }
  }
}

const ROOT: Located = { path: "" };

/** Reads everything below the header; `status` and `version` are read (once) by the caller. */
export function readTableView(root: JsonObject, reader: ViewReader): TableView {
  const { view, serverList } = readRootFields(root, reader);
  serverList?.forEach((entry, index) => {
    const server = readServerEntry(reader, entry, index, view.devices);
    if (server !== undefined) view.servers.push(server);
  });
  view.superPods = readSuperPods(root, reader);
  return view;
}

/**
 * The entries of a table's server_list read one at a time as its text streams in (lib/rank-table/stream-parse.ts),
 * before the rest of the table is known: their views, and their findings under a cap of their own (put after the
 * root's by readStreamedTableView, where readTableView adds them). The entries themselves are not kept.
 */
export class StreamedServers {
  readonly findings: Findings;
  private readonly reader: ViewReader;
  readonly servers: ServerView[] = [];
  readonly devices: DeviceView[] = [];
  /** Entries read, whatever their shape. */
  count = 0;

  constructor(limits?: Readonly<ReportLimits>) {
    this.findings = new Findings(limits);
    this.reader = new ViewReader(this.findings);
  }

  add(entry: JsonValue): void {
    const server = readServerEntry(this.reader, entry, this.count++, this.devices);
    if (server !== undefined) this.servers.push(server);
  }
}

/** readTableView for a root whose server_list entries were read as they streamed in (`streamed`); `findings` are `reader`'s. */
export function readStreamedTableView(root: JsonObject, reader: ViewReader, streamed: StreamedServers, findings: Findings): TableView {
  const { view } = readRootFields(root, reader);
  findings.append(streamed.findings);
  view.servers = streamed.servers;
  view.devices = streamed.devices;
  view.superPods = readSuperPods(root, reader);
  return view;
}

/** The root's own fields, server_list's shape and server_count: what is read before the servers. */
export function readRootFields(root: JsonObject, reader: ViewReader): { view: TableView; serverList: JsonValue[] | undefined } {
  reader.unknownFields(root, ROOT_KNOWN, ROOT);
  const serverList = reader.list(root.server_list, "server_list", ROOT);
  const view: TableView = {
    serverCount: reader.scalar(root.server_count, "server_count", ROOT),
    serverListMissing: isMissingList(root.server_list),
    serverEntryCount: serverList?.length ?? 0,
    servers: [],
    devices: [],
    superPods: undefined,
  };
  return { view, serverList };
}

/** One entry of server_list (undefined when it is not an object, after an RT004); its devices go into `allDevices` too. */
export function readServerEntry(reader: ViewReader, entry: JsonValue, index: number, allDevices: DeviceView[]): ServerView | undefined {
  const path = `/server_list/${index}`;
  const server = reader.object(entry, path, `server_list/${index}`);
  return server === undefined ? undefined : readServer(reader, server, new ServerView(path, index), allDevices);
}

/** super_pod_list, read after the servers; undefined when it is not a list. */
export function readSuperPods(root: JsonObject, reader: ViewReader): SuperPodView[] | undefined {
  const superPodList = reader.list(root.super_pod_list, "super_pod_list", ROOT);
  if (superPodList === undefined) return undefined;
  const superPods: SuperPodView[] = [];
  superPodList.forEach((entry, index) => {
    const path = `/super_pod_list/${index}`;
    const superPod = reader.object(entry, path, `super_pod_list/${index}`);
    if (superPod !== undefined) superPods.push(readSuperPod(reader, superPod, path, index));
  });
  return superPods;
}

function readServer(reader: ViewReader, server: JsonObject, view: ServerView, allDevices: DeviceView[]): ServerView {
  reader.unknownFields(server, SERVER_KNOWN, view);
  view.serverId = reader.scalar(server.server_id, "server_id", view);
  view.hostIp = reader.scalar(server.host_ip, "host_ip", view);
  view.deviceListMissing = isMissingList(server.device);
  const deviceList = reader.list(server.device, "device", view);
  if (deviceList === undefined) return view;
  for (let index = 0; index < deviceList.length; index++) {
    const entry = deviceList[index]!;
    if (!isJsonObject(entry)) {
      reader.wrongShape(`${view.path}/device/${index}`, `device/${index}`, entry, "object");
      continue;
    }
    const device = new DeviceView(view, index, allDevices.length);
    readDevice(reader, entry, device);
    view.devices.push(device);
    allDevices.push(device);
  }
  return view;
}

function readDevice(reader: ViewReader, entry: JsonObject, device: DeviceView): void {
  reader.unknownFields(entry, DEVICE_KNOWN, device);
  const deviceId = (device.deviceId = reader.scalar(entry.device_id, "device_id", device));
  if (deviceId !== undefined) device.deviceNumber = parseWholeNumber(deviceId);
  device.superDeviceId = reader.scalar(entry.super_device_id, "super_device_id", device);
  const deviceIp = (device.deviceIp = reader.scalar(entry.device_ip, "device_ip", device));
  if (deviceIp !== undefined) device.deviceIpKey = addressKey(deviceIp);
  device.devicePort = reader.scalar(entry.device_port, "device_port", device);
  const backupIp = (device.backupDeviceIp = reader.scalar(entry.backup_device_ip, "backup_device_ip", device));
  if (backupIp !== undefined) device.backupDeviceIpKey = addressKey(backupIp);
  device.backupDevicePort = reader.scalar(entry.backup_device_port, "backup_device_port", device);
  device.hostPort = reader.scalar(entry.host_port, "host_port", device);
  const rankId = (device.rankId = reader.scalar(entry.rank_id, "rank_id", device));
  if (rankId !== undefined) device.rankNumber = parseWholeNumber(rankId);
}

function readSuperPod(reader: ViewReader, superPod: JsonObject, path: string, index: number): SuperPodView {
  const owner: Located = { path };
  reader.unknownFields(superPod, SUPER_POD_KNOWN, owner);
  const serverList = reader.list(superPod.server_list, "server_list", owner);
  const view: SuperPodView = {
    path,
    index,
    superPodId: reader.scalar(superPod.super_pod_id, "super_pod_id", owner),
    serverListMissing: isMissingList(superPod.server_list),
    entries: [],
  };
  serverList?.forEach((entry, entryIndex) => {
    const entryPath = `${path}/server_list/${entryIndex}`;
    const member = reader.object(entry, entryPath, `server_list/${entryIndex}`);
    if (member === undefined) return;
    const entryOwner: Located = { path: entryPath };
    reader.unknownFields(member, SUPER_POD_SERVER_KNOWN, entryOwner);
    view.entries.push({ path: entryPath, serverId: reader.scalar(member.server_id, "server_id", entryOwner) });
  });
  return view;
}
