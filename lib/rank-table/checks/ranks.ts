/** Rank rules: presence and form (RT044, RT045), uniqueness and range (RT046, RT047), order (RT048, RT049). */
import type { Findings } from "../findings";
import type { DeviceView, ServerView } from "../table-view";
import { formatRanges, isContiguous, rememberFirst, serverLabel, type CheckContext } from "./context";

/** The first device before `device` with the same rank (undefined when it is the first). */
export type EarlierWithRank = (device: DeviceView, rank: number) => DeviceView | undefined;

export function checkRanks({ view, findings }: CheckContext): void {
  const deviceCount = view.devices.length;
  // Ranks in range (the normal case) are looked up in a typed array (device order + 1); others in a Map.
  const inRange = new Int32Array(deviceCount);
  const outOfRange = new Map<number, DeviceView>();
  const earlierWithRank: EarlierWithRank = (device, rank) => {
    if (rank >= deviceCount) return rememberFirst(outOfRange, rank, device);
    const earlier = inRange[rank]!;
    if (earlier === 0) inRange[rank] = device.order + 1;
    return earlier === 0 ? undefined : view.devices[earlier - 1];
  };
  for (const device of view.devices) checkDeviceRank(device, deviceCount, earlierWithRank, findings);
  checkPhysicalOrder(view.servers.map(physicalRun), findings);
  for (const server of view.servers) checkContiguousRanks(server, findings);
}

/** RT044–RT047 of one device, given the number of devices of the table. */
export function checkDeviceRank(device: DeviceView, deviceCount: number, earlierWithRank: EarlierWithRank, findings: Findings): void {
  const { rankId, rankNumber } = device;
  if (rankId === undefined) {
    findings.add("RT044", device.path);
  } else if (rankNumber === undefined) {
    findings.add("RT045", `${device.path}/rank_id`, { value: rankId });
  } else {
    const earlier = earlierWithRank(device, rankNumber);
    if (earlier) findings.add("RT046", `${device.path}/rank_id`, { value: rankId, other: earlier.path });
    if (rankNumber >= deviceCount) findings.add("RT047", `${device.path}/rank_id`, { value: rankId, max: deviceCount - 1, count: deviceCount });
  }
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

/**
 * A server's ranked devices in physical order, as RT048 needs them: the first and the last, and the first drop
 * inside the server (which does not depend on the servers before it). Undefined when none has a rank.
 */
export interface PhysicalRun {
  first: DeviceView;
  last: DeviceView;
  drop?: { device: DeviceView; previous: DeviceView };
}

export function physicalRun(server: ServerView): PhysicalRun | undefined {
  let run: PhysicalRun | undefined;
  for (const device of devicesInPhysicalOrder(server)) {
    if (device.rankNumber === undefined) continue;
    if (run === undefined) run = { first: device, last: device };
    else {
      if (run.drop === undefined && device.rankNumber < run.last.rankNumber!) run.drop = { device, previous: run.last };
      run.last = device;
    }
  }
  return run;
}

/**
 * RT048, once: walking servers in list order and devices by device_id, ranks must not go down. The walk stops at
 * the first drop, so a drop inside a server counts only when the server's first rank did not drop already.
 */
export function checkPhysicalOrder(runs: Iterable<PhysicalRun | undefined>, findings: Findings): void {
  let previous: DeviceView | undefined;
  for (const run of runs) {
    if (run === undefined) continue;
    const drop = previous && run.first.rankNumber! < previous.rankNumber! ? { device: run.first, previous } : run.drop;
    if (drop) {
      findings.add("RT048", `${drop.device.path}/rank_id`, { value: drop.device.rankId!, previous: drop.previous.rankId!, other: drop.previous.path });
      return;
    }
    previous = run.last;
  }
}

/** RT049, once per server: its ranks must form one block (HCCL forbids interleaving ranks across servers). */
export function checkContiguousRanks(server: ServerView, findings: Findings): void {
  const ranks: number[] = [];
  for (const device of server.devices) if (device.rankNumber !== undefined) ranks.push(device.rankNumber);
  ranks.sort((a, b) => a - b);
  if (!isContiguous(ranks)) findings.add("RT049", server.path, { server: serverLabel(server), ranks: formatRanges(ranks) });
}
