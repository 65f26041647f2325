/** Rank rules: presence and form (RT044, RT045), uniqueness and range (RT046, RT047), order (RT048, RT049). */
import type { Findings } from "../findings";
import type { DeviceView, ServerView } from "../table-view";
import { formatRanges, isContiguous, rememberFirst, serverLabel, type CheckContext } from "./context";

export function checkRanks({ view, findings }: CheckContext): void {
  const deviceCount = view.devices.length;
  // Ranks in range (the normal case) are looked up in a typed array (device order + 1); others in a Map.
  const inRange = new Int32Array(deviceCount);
  const outOfRange = new Map<number, DeviceView>();
  const firstWithRank = (rank: number, device: DeviceView): DeviceView | undefined => {
    if (rank >= deviceCount) return rememberFirst(outOfRange, rank, device);
    const earlier = inRange[rank]!;
    if (earlier === 0) inRange[rank] = device.order + 1;
    return earlier === 0 ? undefined : view.devices[earlier - 1];
  };
  for (const device of view.devices) {
    const { rankId, rankNumber } = device;
    if (rankId === undefined) {
      findings.add("RT044", device.path);
    } else if (rankNumber === undefined) {
      findings.add("RT045", `${device.path}/rank_id`, { value: rankId });
    } else {
      const earlier = firstWithRank(rankNumber, device);
      if (earlier) findings.add("RT046", `${device.path}/rank_id`, { value: rankId, other: earlier.path });
      if (rankNumber >= deviceCount) findings.add("RT047", `${device.path}/rank_id`, { value: rankId, max: deviceCount - 1, count: deviceCount });
    }
  }
  checkPhysicalOrder(view.servers, findings);
  for (const server of view.servers) checkContiguousRanks(server, findings);
}

/** The devices of a server in physical order (by device_id); devices without a valid device_id are left out. */
export function devicesInPhysicalOrder(server: ServerView): readonly DeviceView[] {
  const devices = server.devices;
  let listedInOrder = true;
  for (let i = 0; i < devices.length && listedInOrder; i++) {
    const number = devices[i]!.deviceNumber;
    listedInOrder = number !== undefined && (i === 0 || number > devices[i - 1]!.deviceNumber!);
  }
  // Tables usually list devices by device_id already: then no copy is needed.
  if (listedInOrder) return devices;
  return devices.filter((device) => device.deviceNumber !== undefined).sort((a, b) => a.deviceNumber! - b.deviceNumber!);
}

/** RT048, once: walking servers in list order and devices by device_id, ranks must not go down. */
function checkPhysicalOrder(servers: readonly ServerView[], findings: Findings): void {
  let previous: DeviceView | undefined;
  for (const server of servers) {
    for (const device of devicesInPhysicalOrder(server)) {
      if (device.rankNumber === undefined) continue;
      if (previous && device.rankNumber < previous.rankNumber!) {
        findings.add("RT048", `${device.path}/rank_id`, { value: device.rankId!, previous: previous.rankId!, other: previous.path });
        return;
      }
      previous = device;
    }
  }
}

/** RT049, once per server: its ranks must form one block (HCCL forbids interleaving ranks across servers). */
function checkContiguousRanks(server: ServerView, findings: Findings): void {
  const ranks: number[] = [];
  for (const device of server.devices) if (device.rankNumber !== undefined) ranks.push(device.rankNumber);
  ranks.sort((a, b) => a - b);
  if (!isContiguous(ranks)) findings.add("RT049", server.path, { server: serverLabel(server), ranks: formatRanges(ranks) });
}
