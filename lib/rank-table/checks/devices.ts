/** Device rules: device_id (RT030–RT032), super_device_id (RT033), device_ip (RT035–RT039), ports (RT040–RT042). */
import type { Findings } from "../findings";
import { FIRST_UNRESERVED_PORT, MAX_DEVICE_ID } from "../model";
import { addressFamily, parsePort, parseWholeNumber, type AddressKey } from "../net";
import type { DeviceView, ServerView } from "../table-view";
import { rememberFirst, type CheckContext } from "./context";

export type DeviceIpRequirement = { messageId: "RT038.super-pods" | "RT038.servers"; count: number } | { messageId: "RT039" } | undefined;

/** When a missing device_ip is an error (RT038), a warning (RT039), or fine (single server). */
export function deviceIpRequirement(version: "1.0" | "1.2", servers: number, superPods: number | undefined): DeviceIpRequirement {
  if (version === "1.2" && superPods !== undefined) {
    return superPods > 1 ? { messageId: "RT038.super-pods", count: superPods } : { messageId: "RT039" };
  }
  return servers > 1 ? { messageId: "RT038.servers", count: servers } : undefined;
}

/** RT037's finding: the first device of the other family than the first valid device_ip's. */
export interface MixedFamily {
  first: DeviceView;
  family: 4 | 6;
}

/**
 * What the rules of one server's devices read from the rest of the table: the version, when device_ip is required,
 * the first device before this one with the same device_ip key, and whether this device is the one RT037 names.
 */
export interface DeviceKeys {
  version: "1.0" | "1.2";
  requirement: DeviceIpRequirement;
  earlierWithIp(device: DeviceView, key: AddressKey): DeviceView | undefined;
  mixedFamily(device: DeviceView, key: AddressKey): MixedFamily | undefined;
}

const PORT_FIELDS = [
  ["device_port", "devicePort"],
  ["backup_device_port", "backupDevicePort"],
  ["host_port", "hostPort"],
] as const;

export function checkDevices(context: CheckContext): void {
  const { view, findings, version, deviceByIp } = context;
  let firstFamily: MixedFamily | undefined;
  let mixedFamiliesReported = false;
  const keys: DeviceKeys = {
    version,
    requirement: deviceIpRequirement(version, view.servers.length, view.superPods?.length),
    earlierWithIp: (device, key) => rememberFirst(deviceByIp, key, device),
    mixedFamily: (device, key) => {
      const family = addressFamily(key);
      if (firstFamily === undefined) firstFamily = { first: device, family };
      else if (family !== firstFamily.family && !mixedFamiliesReported) {
        mixedFamiliesReported = true;
        return firstFamily;
      }
      return undefined;
    },
  };
  // Per-server maps, emptied for each server rather than allocated (there may be thousands of servers).
  const scratch: DeviceScratch = { byDeviceId: new Map(), byHostPort: new Map() };
  for (const server of view.servers) checkServerDevices(server, keys, findings, scratch);
}

interface DeviceScratch {
  byDeviceId: Map<number, DeviceView>;
  byHostPort: Map<number, DeviceView>;
}

/** The device rules of one server's devices (RT032 and RT042 compare devices of the same server). */
export function checkServerDevices(server: ServerView, keys: DeviceKeys, findings: Findings, scratch: DeviceScratch = { byDeviceId: new Map(), byHostPort: new Map() }): void {
  const { byDeviceId, byHostPort } = scratch;
  const { version, requirement } = keys;
  byDeviceId.clear();
  byHostPort.clear();
  for (const device of server.devices) {
    checkDeviceId(device, byDeviceId, findings);
    if (version === "1.2" && device.superDeviceId !== undefined && parseWholeNumber(device.superDeviceId) === undefined) {
      findings.add("RT033", `${device.path}/super_device_id`, { value: device.superDeviceId });
    }

    const { deviceIp, deviceIpKey } = device;
    if (deviceIp === undefined) {
      if (requirement?.messageId === "RT039") findings.add("RT039", device.path);
      else if (requirement) findings.addMessage("RT038", requirement.messageId, device.path, { count: requirement.count });
    } else if (deviceIpKey === undefined) {
      findings.add("RT035", `${device.path}/device_ip`, { value: deviceIp });
    } else {
      const earlier = keys.earlierWithIp(device, deviceIpKey);
      if (earlier) findings.add("RT036", `${device.path}/device_ip`, { value: deviceIp, other: earlier.path });
      const mixed = keys.mixedFamily(device, deviceIpKey);
      if (mixed) findings.add("RT037", `${device.path}/device_ip`, { value: deviceIp, family: addressFamily(deviceIpKey), other: mixed.first.path, firstFamily: mixed.family });
    }

    for (const [field, property] of PORT_FIELDS) {
      const text = device[property];
      if (text === undefined) continue;
      const port = parsePort(text);
      if (port === undefined) findings.add("RT040", `${device.path}/${field}`, { field, value: text });
      else if (port < FIRST_UNRESERVED_PORT) findings.add("RT041", `${device.path}/${field}`, { field, value: text });
    }
    const hostPort = device.hostPort === undefined ? undefined : parsePort(device.hostPort);
    if (hostPort !== undefined) {
      const earlier = rememberFirst(byHostPort, hostPort, device);
      if (earlier) findings.add("RT042", `${device.path}/host_port`, { value: device.hostPort!, other: earlier.path });
    }
  }
}

function checkDeviceId(device: DeviceView, byDeviceId: Map<number, DeviceView>, findings: Findings): void {
  const { deviceId, deviceNumber } = device;
  if (deviceId === undefined) {
    findings.add("RT030", device.path);
  } else if (deviceNumber === undefined || deviceNumber > MAX_DEVICE_ID) {
    findings.add("RT031", `${device.path}/device_id`, { value: deviceId });
  } else {
    const earlier = rememberFirst(byDeviceId, deviceNumber, device);
    if (earlier) findings.add("RT032", `${device.path}/device_id`, { value: deviceId, other: earlier.path });
  }
}
