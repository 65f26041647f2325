/**
 * Repairs: each is a separate, explicit operation that leaves its input alone and returns a new table plus the
 * list of what it changed. Each one removes the findings it is for:
 *
 * - renumberRanks: RT044–RT049 (ranks 0…N−1 in physical order: server order, then device_id)
 * - pairBackups: RT050–RT054 (backup_device_ip = the other die of the same NPU, 2k ↔ 2k+1)
 * - assignPorts: RT040–RT043 (host_port, device_port, backup_device_port from a base port)
 * - recomputeServerCount: RT015, RT016
 */
import { setMember } from "./json-scanner";
import { FIRST_UNRESERVED_PORT, MAX_PORT, impliedVersion, isJsonObject, scalarToString, type JsonObject, type JsonValue, type RankTableInput } from "./model";
import { addressKey, parseWholeNumber, type AddressKey } from "./net";

export interface Change {
  /** JSON Pointer of the field that changed. */
  path: string;
  /** The value before (as written in the input), or undefined when the field was added. */
  before: JsonValue | undefined;
  /** The value after, or undefined when the field was removed ("2.0" tables write numbers as numbers). */
  after: string | number | undefined;
}

export interface RepairResult {
  table: JsonValue;
  changes: Change[];
}

/** A deep copy that never goes through the `__proto__` setter. */
export function cloneJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) setMember(copy, key, cloneJson(value[key]!));
  return copy;
}

/** A field as text: strings as they are, numbers and booleans as HCCL would need them, anything else absent. */
export function fieldText(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" || typeof value === "boolean") return scalarToString(key, value);
  return undefined;
}

interface DeviceRef {
  device: JsonObject;
  path: string;
  /** device_id as a number, when it is one. */
  deviceNumber: number | undefined;
}

interface ServerRef {
  server: JsonObject;
  path: string;
  devices: DeviceRef[];
}

/** The servers and devices of a (copied) table that are objects, with their pointers. */
function collectServers(table: JsonValue): ServerRef[] {
  if (!isJsonObject(table) || !Array.isArray(table.server_list)) return [];
  const servers: ServerRef[] = [];
  table.server_list.forEach((server, serverIndex) => {
    if (!isJsonObject(server)) return;
    const path = `/server_list/${serverIndex}`;
    const devices: DeviceRef[] = [];
    if (Array.isArray(server.device)) {
      server.device.forEach((device, deviceIndex) => {
        if (!isJsonObject(device)) return;
        const deviceId = fieldText(device, "device_id");
        devices.push({ device, path: `${path}/device/${deviceIndex}`, deviceNumber: deviceId === undefined ? undefined : parseWholeNumber(deviceId) });
      });
    }
    servers.push({ server, path, devices });
  });
  return servers;
}

class ChangeLog {
  readonly changes: Change[] = [];

  /** Sets (or, with undefined, removes) a string field, recording the change if there is one. */
  set(object: JsonObject, objectPath: string, key: string, after: string | undefined): void {
    const before = Object.hasOwn(object, key) ? object[key] : undefined;
    if (before === after) return;
    if (after === undefined) delete object[key];
    else setMember(object, key, after);
    this.changes.push({ path: `${objectPath}/${key}`, before, after });
  }
}

function repair(table: RankTableInput, apply: (copy: JsonValue, log: ChangeLog) => void): RepairResult {
  // A typed RankTable is plain JSON data too (an interface just has no index signature).
  const copy = cloneJson(table as JsonValue);
  const log = new ChangeLog();
  apply(copy, log);
  return { table: copy, changes: log.changes };
}

/** Devices of a server in physical order: by device_id, devices without a numeric device_id last, in list order. */
function physicalOrder(devices: readonly DeviceRef[]): DeviceRef[] {
  return [...devices].sort((a, b) => (a.deviceNumber ?? Infinity) - (b.deviceNumber ?? Infinity));
}

/** Renumbers rank_id 0…N−1 in physical order: servers as listed, devices by device_id within a server. */
export function renumberRanks(table: RankTableInput): RepairResult {
  return repair(table, (copy, log) => {
    let rank = 0;
    for (const server of collectServers(copy)) {
      for (const { device, path } of physicalOrder(server.devices)) log.set(device, path, "rank_id", String(rank++));
    }
  });
}

/**
 * Pairs backup NICs: on Atlas A3, device_id 2k and 2k+1 of one server are the two dies of one NPU, and each names
 * the other's device_ip as backup_device_ip. A device whose partner is missing (or has no usable, unique
 * device_ip) loses its backup fields, unless its backup_device_ip is a valid address of no device in this table
 * (the partner die runs in another job: RT055 stays, as a warning). Version "1.0" ignores backup fields, so there
 * they are removed (as for a table without version and without super_pod_list, which is checked as "1.0").
 */
export function pairBackups(table: RankTableInput): RepairResult {
  return repair(table, (copy, log) => {
    const servers = collectServers(copy);
    const removeOnly = isJsonObject(copy) && impliedVersion(fieldText(copy, "version"), copy.super_pod_list !== undefined) === "1.0";
    const ownerByIp = new Map<AddressKey, JsonObject>();
    for (const server of servers) {
      for (const { device } of server.devices) {
        const key = validIpKey(fieldText(device, "device_ip"));
        if (key !== undefined && !ownerByIp.has(key)) ownerByIp.set(key, device);
      }
    }
    /** The device's device_ip if it is valid and the device is the one HCCL (and the validator) maps it to. */
    const ownIp = (device: JsonObject): string | undefined => {
      const ip = fieldText(device, "device_ip");
      const key = validIpKey(ip);
      return key !== undefined && ownerByIp.get(key) === device ? ip : undefined;
    };
    for (const server of servers) {
      const byNumber = new Map<number, JsonObject>();
      for (const { device, deviceNumber } of server.devices) if (deviceNumber !== undefined && !byNumber.has(deviceNumber)) byNumber.set(deviceNumber, device);
      for (const { device, path, deviceNumber } of server.devices) {
        const partner = deviceNumber === undefined || byNumber.get(deviceNumber) !== device ? undefined : byNumber.get(deviceNumber ^ 1);
        const partnerIp = partner && ownIp(device) !== undefined ? ownIp(partner) : undefined;
        let backupIp = removeOnly ? undefined : partnerIp;
        if (backupIp === undefined && !removeOnly) {
          const current = fieldText(device, "backup_device_ip");
          const key = validIpKey(current);
          if (key !== undefined && !ownerByIp.has(key)) backupIp = current;
        }
        log.set(device, path, "backup_device_ip", backupIp);
        if (backupIp === undefined) log.set(device, path, "backup_device_port", undefined);
      }
    }
  });
}

function validIpKey(ip: string | undefined): AddressKey | undefined {
  return ip === undefined ? undefined : addressKey(ip);
}

export interface PortPlan {
  /** The first port to use; ports below 1024 (the reserved range) are skipped. */
  basePort: number;
}

/**
 * Assigns ports from a base port in three blocks as wide as the largest server (n devices): host_port base+i,
 * device_port base+n+i, backup_device_port base+2n+i for the i-th device of each server. host_port is then unique
 * per server, and no NIC's device_port can equal a backup_device_port given for it. backup_device_port is set
 * only on devices that have backup fields. Throws a RangeError when the blocks do not fit below 65536.
 */
export function assignPorts(table: RankTableInput, plan: PortPlan): RepairResult {
  return repair(table, (copy, log) => {
    const servers = collectServers(copy);
    const width = servers.reduce((widest, server) => Math.max(widest, server.devices.length), 0);
    const portsOf = planPorts(plan.basePort, width);
    for (const server of servers) {
      server.devices.forEach(({ device, path }, index) => {
        const ports = portsOf(index);
        log.set(device, path, "device_port", ports.devicePort);
        if (fieldText(device, "backup_device_ip") !== undefined || fieldText(device, "backup_device_port") !== undefined) {
          log.set(device, path, "backup_device_port", ports.backupDevicePort);
        }
        log.set(device, path, "host_port", ports.hostPort);
      });
    }
  });
}

export interface DevicePorts {
  hostPort: string;
  devicePort: string;
  backupDevicePort: string;
}

/**
 * The block scheme of assignPorts for servers of at most `width` devices: returns the ports of the index-th
 * device of a server. Throws a RangeError when the blocks do not fit below 65536.
 */
export function planPorts(basePort: number, width: number): (index: number) => DevicePorts {
  const base = Math.max(Math.trunc(basePort), FIRST_UNRESERVED_PORT);
  const last = base + 3 * width - 1;
  if (!(last <= MAX_PORT)) throw new RangeError(`ports ${base}…${last} do not fit below ${MAX_PORT + 1}: choose a lower base port`);
  return (index) => ({
    hostPort: String(base + index),
    devicePort: String(base + width + index),
    backupDevicePort: String(base + 2 * width + index),
  });
}

/** Sets server_count to the number of entries of server_list. */
export function recomputeServerCount(table: RankTableInput): RepairResult {
  return repair(table, (copy, log) => {
    if (isJsonObject(copy) && Array.isArray(copy.server_list)) log.set(copy, "", "server_count", String(copy.server_list.length));
  });
}
