/**
 * Backup NIC ("rail borrowing") rules: RT043 and RT050–RT055. On Atlas A3 the two dies of one NPU are device_id 2k
 * and 2k+1 of the same server, and each may name the other's NIC as its backup.
 */
import type { Findings } from "../findings";
import { parsePort, type AddressKey } from "../net";
import { NONE_TEXT } from "../messages";
import type { DeviceView } from "../table-view";
import type { CheckContext } from "./context";

/**
 * What a device's backup rules read from the others: the version, the device that owns an address (the first with
 * it as device_ip), and whether one device comes after another in the document.
 */
export interface BackupKeys {
  version: "1.0" | "1.2";
  ownerOf(key: AddressKey): DeviceView | undefined;
  isAfter(device: DeviceView, other: DeviceView): boolean;
}

export function checkBackups(context: CheckContext): void {
  const { view, findings, version, deviceByIp } = context;
  const keys: BackupKeys = { version, ownerOf: (key) => deviceByIp.get(key), isAfter: (device, other) => device.order > other.order };
  for (const device of view.devices) checkDeviceBackup(device, keys, findings);
}

export function checkDeviceBackup(device: DeviceView, keys: BackupKeys, findings: Findings): void {
  const { backupDeviceIp, backupDevicePort } = device;
  if (keys.version === "1.0") {
    if (backupDeviceIp !== undefined) findings.addMessage("RT054", "RT054.v10", `${device.path}/backup_device_ip`, { field: "backup_device_ip" });
    if (backupDevicePort !== undefined) findings.addMessage("RT054", "RT054.v10", `${device.path}/backup_device_port`, { field: "backup_device_port" });
  } else if (backupDeviceIp !== undefined) {
    checkBackupOf(keys, findings, device, backupDeviceIp);
  } else if (backupDevicePort !== undefined) {
    findings.add("RT054", `${device.path}/backup_device_port`, { value: backupDevicePort });
  }
}

function checkBackupOf(keys: BackupKeys, findings: Findings, device: DeviceView, backupIp: string): void {
  const key = device.backupDeviceIpKey;
  if (key === undefined) {
    findings.add("RT050", `${device.path}/backup_device_ip`, { value: backupIp });
    return;
  }
  if (key === device.deviceIpKey) {
    findings.add("RT051", `${device.path}/backup_device_ip`, { value: backupIp });
    return;
  }
  const owner = keys.ownerOf(key);
  if (owner === undefined) {
    findings.add("RT055", `${device.path}/backup_device_ip`, { value: backupIp });
    return;
  }
  checkPortConflict(findings, owner, device, backupIp, keys.isAfter(owner, device));
  const partnerNumber = device.deviceNumber === undefined ? undefined : device.deviceNumber ^ 1;
  if (owner.server !== device.server || partnerNumber === undefined || owner.deviceNumber !== partnerNumber) {
    findings.add("RT052", `${device.path}/backup_device_ip`, { value: backupIp, other: owner.path, otherDeviceId: owner.deviceId ?? "?", partner: partnerNumber ?? "?" });
  } else if (device.deviceIpKey === undefined || owner.backupDeviceIpKey !== device.deviceIpKey) {
    findings.add("RT053", `${device.path}/backup_device_ip`, { value: backupIp, other: owner.path, partnerBackup: owner.backupDeviceIp ?? NONE_TEXT });
  }
}

/** RT043: one NIC must not listen on the same port as primary (its device_port) and as someone's backup. */
function checkPortConflict(findings: Findings, owner: DeviceView, backup: DeviceView, ip: string, ownerAfter: boolean): void {
  if (owner.devicePort === undefined || backup.backupDevicePort === undefined) return;
  const port = parsePort(owner.devicePort);
  if (port === undefined || port !== parsePort(backup.backupDevicePort)) return;
  const at = ownerAfter ? `${owner.path}/device_port` : `${backup.path}/backup_device_port`;
  findings.add("RT043", at, { port: owner.devicePort, ip, primary: owner.path, backup: backup.path });
}
