/**
 * The holder indexes of an incremental "1.0"/"1.2" state (v1-state.ts): who holds each server_id and host_ip
 * (server keys), each device_ip, backup_device_ip and rank_id (device keys), and each super_device_id of a pod, as
 * the full run's first-holder maps (checks/servers.ts, devices.ts, ranks.ts, backups.ts, super-pods.ts) would file
 * them; and the counts the table-wide rules read (devices, address families, super_device_ids). A server's key
 * comes from rank-order.ts; a device's is its server's key × `stride` + its index in the device list, so both keep
 * document order.
 */
import { isPlainIPv4, parseWholeNumber, type AddressKey } from "../net";
import type { DeviceView, ServerView } from "../table-view";
import { addHolder, firstHolder, removeHolder, type Holders } from "./holders";

type AnyHolders = Map<unknown, Holders>;

/**
 * What an update touched, per index: the first holder, before the update, of every key a server taken out or put
 * in held (when it changes, every holder names another "other"), and the keys of those servers: a first holder
 * among them may be a device read again under the same key, so its key's holders are checked again too.
 */
export class Touched {
  readonly firsts = new Map<AnyHolders, Map<unknown, number | undefined>>();
  readonly rekeyed = new Set<number>();

  note<K>(map: Map<K, Holders>, key: K): void {
    let firsts = this.firsts.get(map as AnyHolders);
    if (firsts === undefined) this.firsts.set(map as AnyHolders, (firsts = new Map()));
    if (firsts.has(key)) return;
    const current = map.get(key);
    firsts.set(key, current === undefined ? undefined : firstHolder(current));
  }
}

export class V1Index {
  readonly serverIds = new Map<string, Holders>();
  readonly hostIps = new Map<string, Holders>();
  readonly deviceIps = new Map<AddressKey, Holders>();
  /** Devices by their backup_device_ip: they read the owner of that address (RT043, RT052, RT053, RT055). */
  readonly backups = new Map<AddressKey, Holders>();
  readonly rankIds = new Map<number, Holders>();
  /** By pod (its index in super_pod_list), then super_device_id. */
  readonly superDeviceIds = new Map<number, Map<number, Holders>>();
  devices = 0;
  /** Devices with a valid device_ip of each family (RT037), and with a super_device_id (RT013, RT067). */
  readonly families = { 4: 0, 6: 0 };
  withSuperDeviceId = 0;

  constructor(readonly stride: number) {}

  /** Files (1) or unfiles (−1) a server and its devices under `key`, noting what it touched. */
  file(server: ServerView, key: number, sign: 1 | -1, touched?: Touched): void {
    const holder = <K>(map: Map<K, Holders>, value: K, at: number) => {
      touched?.note(map, value);
      (sign > 0 ? addHolder : removeHolder)(map, value, at);
    };
    if (server.serverId !== undefined) holder(this.serverIds, server.serverId, key);
    if (server.hostIp !== undefined && isPlainIPv4(server.hostIp)) holder(this.hostIps, server.hostIp, key);
    this.devices += sign * server.devices.length;
    for (const device of server.devices) {
      const at = key * this.stride + device.index;
      if (device.deviceIpKey !== undefined) {
        holder(this.deviceIps, device.deviceIpKey, at);
        this.families[typeof device.deviceIpKey === "number" ? 4 : 6] += sign;
      }
      if (device.backupDeviceIpKey !== undefined) holder(this.backups, device.backupDeviceIpKey, at);
      if (device.rankNumber !== undefined) holder(this.rankIds, device.rankNumber, at);
      if (device.superDeviceId !== undefined) this.withSuperDeviceId += sign;
    }
    touched?.rekeyed.add(key);
  }

  /** Files (1) or unfiles (−1) a server's super_device_ids under its pod. */
  filePod(server: ServerView, key: number, pod: number, sign: 1 | -1, touched?: Touched): void {
    let map = this.superDeviceIds.get(pod);
    if (map === undefined) this.superDeviceIds.set(pod, (map = new Map()));
    for (const device of server.devices) {
      const number = superDeviceNumber(device);
      if (number === undefined) continue;
      touched?.note(map, number);
      (sign > 0 ? addHolder : removeHolder)(map, number, key * this.stride + device.index);
    }
    touched?.rekeyed.add(key);
  }
}

export function superDeviceNumber(device: DeviceView): number | undefined {
  return device.superDeviceId === undefined ? undefined : parseWholeNumber(device.superDeviceId);
}
