/**
 * Super pod rules (version "1.2"): RT060–RT066, super_device_id uniqueness within a super pod (RT034) and
 * half-configured super pod mode (RT067).
 */
import type { Findings } from "../findings";
import { parseWholeNumber } from "../net";
import type { DeviceView, ServerView, SuperPodView } from "../table-view";
import { formatRanges, isContiguous, rememberFirst, type CheckContext } from "./context";

export interface Membership {
  superPod: SuperPodView;
  entryPath: string;
}

/** The super_device_id fields of the devices, as RT013 and RT067 read them: counted, and the first device with or without one. */
export interface SuperDeviceIdPresence {
  devices: number;
  withId: number;
  /** Whether the first device has one. */
  firstHas: boolean;
  /** The first device (document order) that has (`has`) or lacks a super_device_id. */
  firstWhere(has: boolean): DeviceView | undefined;
}

export function superDeviceIdPresence(devices: readonly DeviceView[]): SuperDeviceIdPresence {
  let withId = 0;
  for (const device of devices) if (device.superDeviceId !== undefined) withId++;
  return { devices: devices.length, withId, firstHas: devices[0]?.superDeviceId !== undefined, firstWhere: (has) => devices.find((device) => (device.superDeviceId !== undefined) === has) };
}

export function superPodLabel(superPod: SuperPodView): string {
  return superPod.superPodId ?? superPod.path;
}

export function checkSuperPods(context: CheckContext, superPodListPresent: boolean, superDeviceIds: SuperDeviceIdPresence): void {
  if (context.version !== "1.2") return;
  const { view, findings } = context;
  checkHalfConfigured(superDeviceIds, superPodListPresent, findings);
  const superPods = view.superPods;
  if (superPods === undefined) return;
  const serverById = new Map<string, ServerView>();
  for (const server of view.servers) if (server.serverId !== undefined && !serverById.has(server.serverId)) serverById.set(server.serverId, server);
  const membership = checkMembership(view.servers, superPods, (serverId) => serverById.get(serverId), findings);
  checkContiguousServers(view.servers, membership, findings);
  const byPod = new Map<SuperPodView, Map<number, DeviceView>>();
  const earlierInPod = (superPod: SuperPodView, number: number, device: DeviceView) => {
    let seen = byPod.get(superPod);
    if (seen === undefined) byPod.set(superPod, (seen = new Map()));
    return rememberFirst(seen, number, device);
  };
  for (const device of view.devices) {
    const superPod = membership.get(device.server)?.superPod;
    if (superPod !== undefined) checkSuperDeviceId(device, superPod, earlierInPod, findings);
  }
}

/** RT060–RT064: the pods' ids and entries, and the servers no pod lists; `firstWithId` is the first server with an id. */
export function checkMembership(servers: readonly ServerView[], superPods: readonly SuperPodView[], firstWithId: (serverId: string) => ServerView | undefined, findings: Findings): Map<ServerView, Membership> {
  const superPodById = new Map<string, SuperPodView>();
  const membership = new Map<ServerView, Membership>();
  for (const superPod of superPods) {
    const { superPodId, path } = superPod;
    if (superPodId === undefined) {
      findings.add("RT060", path);
    } else {
      const earlier = rememberFirst(superPodById, superPodId, superPod);
      if (earlier) findings.add("RT061", `${path}/super_pod_id`, { value: superPodId, other: earlier.path });
    }
    if (superPod.serverListMissing) findings.add("RT066", path, { pod: superPodLabel(superPod) });
    for (const entry of superPod.entries) {
      if (entry.serverId === undefined) {
        findings.addMessage("RT062", "RT062.missing", entry.path);
        continue;
      }
      const server = firstWithId(entry.serverId);
      const earlier = server && membership.get(server);
      if (server === undefined) findings.add("RT062", `${entry.path}/server_id`, { value: entry.serverId });
      else if (earlier) findings.add("RT063", `${entry.path}/server_id`, { value: entry.serverId, pod: superPodLabel(earlier.superPod), other: earlier.entryPath });
      else membership.set(server, { superPod, entryPath: entry.path });
    }
  }
  for (const server of servers) {
    if (server.serverId !== undefined && !membership.has(server)) findings.add("RT064", `${server.path}/server_id`, { value: server.serverId });
  }
  return membership;
}

/** RT065, once per super pod: its servers must sit together in server_list. */
export function checkContiguousServers(servers: readonly ServerView[], membership: Map<ServerView, Membership>, findings: Findings): void {
  const positionsByPod = new Map<SuperPodView, number[]>();
  for (const server of servers) {
    const superPod = membership.get(server)?.superPod;
    if (superPod === undefined) continue;
    const positions = positionsByPod.get(superPod);
    if (positions) positions.push(server.index);
    else positionsByPod.set(superPod, [server.index]);
  }
  for (const [superPod, positions] of positionsByPod) {
    if (!isContiguous(positions)) findings.add("RT065", superPod.path, { pod: superPodLabel(superPod), positions: formatRanges(positions) });
  }
}

/** RT034 of one device of a pod: super_device_id is unique within one super pod (another may reuse the numbers). */
export function checkSuperDeviceId(device: DeviceView, superPod: SuperPodView, earlierInPod: (superPod: SuperPodView, number: number, device: DeviceView) => DeviceView | undefined, findings: Findings): void {
  const number = device.superDeviceId === undefined ? undefined : parseWholeNumber(device.superDeviceId);
  if (number === undefined) return;
  const earlier = earlierInPod(superPod, number, device);
  if (earlier) findings.add("RT034", `${device.path}/super_device_id`, { value: device.superDeviceId!, other: earlier.path, pod: superPodLabel(superPod) });
}

/** RT067, once: super pod mode needs super_pod_list and a super_device_id on every device. */
export function checkHalfConfigured(presence: SuperDeviceIdPresence, superPodListPresent: boolean, findings: Findings): void {
  const { devices, withId } = presence;
  if (devices === 0) return;
  if (withId > 0 && !superPodListPresent) {
    findings.addMessage("RT067", "RT067.no-pods", `${presence.firstWhere(true)!.path}/super_device_id`);
  } else if (withId === 0 && superPodListPresent) {
    findings.addMessage("RT067", "RT067.no-super-device-ids", "/super_pod_list");
  } else if (withId > 0 && withId < devices) {
    const odd = presence.firstWhere(!presence.firstHas)!;
    const path = odd.superDeviceId === undefined ? odd.path : `${odd.path}/super_device_id`;
    findings.addMessage("RT067", "RT067.partial", path, { count: withId, total: devices });
  }
}
