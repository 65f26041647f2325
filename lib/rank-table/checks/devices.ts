/** Device rules: device_id (RT030–RT032), super_device_id (RT033), device_ip (RT035–RT039), ports (RT040–RT042). */
import type { Findings } from "../findings";
import { FIRST_UNRESERVED_PORT, MAX_DEVICE_ID } from "../model";
import { addressFamily, parsePort, parseWholeNumber } from "../net";
import type { DeviceView } from "../table-view";
import { rememberFirst, type CheckContext } from "./context";

type DeviceIpRequirement = { messageId: "RT038.super-pods" | "RT038.servers"; count: number } | { messageId: "RT039" } | undefined;

/** When a missing device_ip is an error (RT038), a warning (RT039), or fine (single server). */
function deviceIpRequirement({ view, version }: CheckContext): DeviceIpRequirement {
  const servers = view.servers.length;
  if (version === "1.2" && view.superPods !== undefined) {
    return view.superPods.length > 1 ? { messageId: "RT038.super-pods", count: view.superPods.length } : { messageId: "RT039" };
  }
  return servers > 1 ? { messageId: "RT038.servers", count: servers } : undefined;
}

const PORT_FIELDS = [
  ["device_port", "devicePort"],
  ["backup_device_port", "backupDevicePort"],
  ["host_port", "hostPort"],
] as const;

export function checkDevices(context: CheckContext): void {
  const { view, findings, version, deviceByIp } = context;
  const requirement = deviceIpRequirement(context);
  let firstFamily: { family: 4 | 6; device: DeviceView } | undefined;
  let mixedFamiliesReported = false;
  // Per-server maps, emptied for each server rather than allocated (there may be thousands of servers).
  const byDeviceId = new Map<number, DeviceView>();
  const byHostPort = new Map<number, DeviceView>();
  for (const server of view.servers) {
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
        const earlier = rememberFirst(deviceByIp, deviceIpKey, device);
        if (earlier) findings.add("RT036", `${device.path}/device_ip`, { value: deviceIp, other: earlier.path });
        const family = addressFamily(deviceIpKey);
        if (firstFamily === undefined) firstFamily = { family, device };
        else if (family !== firstFamily.family && !mixedFamiliesReported) {
          mixedFamiliesReported = true;
          findings.add("RT037", `${device.path}/device_ip`, { value: deviceIp, family, other: firstFamily.device.path, firstFamily: firstFamily.family });
        }
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
