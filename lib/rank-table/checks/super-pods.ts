/**
 * Super pod rules (version "1.2"): RT060–RT066, super_device_id uniqueness within a super pod (RT034) and
 * half-configured super pod mode (RT067).
 */
import { parseWholeNumber } from "../net";
import type { DeviceView, ServerView, SuperPodView } from "../table-view";
import { formatRanges, isContiguous, rememberFirst, type CheckContext } from "./context";

interface Membership {
  superPod: SuperPodView;
  entryPath: string;
}

function superPodLabel(superPod: SuperPodView): string {
  return superPod.superPodId ?? superPod.path;
}

export function checkSuperPods(context: CheckContext, superPodListPresent: boolean): void {
  if (context.version !== "1.2") return;
  checkHalfConfigured(context, superPodListPresent);
  const superPods = context.view.superPods;
  if (superPods === undefined) return;
  const membership = checkMembership(context, superPods);
  checkContiguousServers(context, membership);
  checkSuperDeviceIds(context, membership);
}

function checkMembership({ view, findings }: CheckContext, superPods: readonly SuperPodView[]): Map<ServerView, Membership> {
  const serverById = new Map<string, ServerView>();
  for (const server of view.servers) if (server.serverId !== undefined && !serverById.has(server.serverId)) serverById.set(server.serverId, server);
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
      const server = serverById.get(entry.serverId);
      const earlier = server && membership.get(server);
      if (server === undefined) findings.add("RT062", `${entry.path}/server_id`, { value: entry.serverId });
      else if (earlier) findings.add("RT063", `${entry.path}/server_id`, { value: entry.serverId, pod: superPodLabel(earlier.superPod), other: earlier.entryPath });
      else membership.set(server, { superPod, entryPath: entry.path });
    }
  }
  for (const server of view.servers) {
    if (server.serverId !== undefined && !membership.has(server)) findings.add("RT064", `${server.path}/server_id`, { value: server.serverId });
  }
  return membership;
}

/** RT065, once per super pod: its servers must sit together in server_list. */
function checkContiguousServers({ view, findings }: CheckContext, membership: Map<ServerView, Membership>): void {
  const positionsByPod = new Map<SuperPodView, number[]>();
  for (const server of view.servers) {
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

/** RT034: super_device_id is unique within one super pod (another super pod may reuse the same numbers). */
function checkSuperDeviceIds({ view, findings }: CheckContext, membership: Map<ServerView, Membership>): void {
  const byPod = new Map<SuperPodView, Map<number, DeviceView>>();
  for (const device of view.devices) {
    const superPod = membership.get(device.server)?.superPod;
    const number = device.superDeviceId === undefined ? undefined : parseWholeNumber(device.superDeviceId);
    if (superPod === undefined || number === undefined) continue;
    let seen = byPod.get(superPod);
    if (seen === undefined) byPod.set(superPod, (seen = new Map()));
    const earlier = rememberFirst(seen, number, device);
    if (earlier) findings.add("RT034", `${device.path}/super_device_id`, { value: device.superDeviceId!, other: earlier.path, pod: superPodLabel(superPod) });
  }
}

/** RT067, once: super pod mode needs super_pod_list and a super_device_id on every device. */
function checkHalfConfigured({ view, findings }: CheckContext, superPodListPresent: boolean): void {
  const devices = view.devices;
  const withSuperDeviceId = devices.filter((device) => device.superDeviceId !== undefined);
  const first = devices[0];
  if (first === undefined) return;
  if (withSuperDeviceId.length > 0 && !superPodListPresent) {
    findings.addMessage("RT067", "RT067.no-pods", `${withSuperDeviceId[0]!.path}/super_device_id`);
  } else if (withSuperDeviceId.length === 0 && superPodListPresent) {
    findings.addMessage("RT067", "RT067.no-super-device-ids", "/super_pod_list");
  } else if (withSuperDeviceId.length > 0 && withSuperDeviceId.length < devices.length) {
    const firstHas = first.superDeviceId !== undefined;
    const odd = devices.find((device) => (device.superDeviceId !== undefined) !== firstHas)!;
    const path = odd.superDeviceId === undefined ? odd.path : `${odd.path}/super_device_id`;
    findings.addMessage("RT067", "RT067.partial", path, { count: withSuperDeviceId.length, total: devices.length });
  }
}
