/**
 * The "1.x" rules that name the first device with some property (RT013, RT037, RT067), for the incremental state
 * (v1-checks.ts): the index's counts tell whether there is one, and only then are the devices walked in document
 * order, stopping at the first (a table that mixes address families or half sets super_device_id is rare and small).
 */
import type { SuperDeviceIdPresence } from "../checks/super-pods";
import { addressFamily } from "../net";
import type { DeviceView, ServerView } from "../table-view";
import type { V1Index } from "./v1-index";

type Servers = readonly { view: ServerView }[];

/** RT037's device, the first device_ip before it and that one's family. */
export interface Mixed {
  device: DeviceView;
  first: DeviceView;
  family: 4 | 6;
}

/** The super_device_ids of the devices: counted by the index, the first with or without one found by a walk. */
export function superDeviceIds(servers: Servers, index: V1Index): SuperDeviceIdPresence {
  const firstWhere = (has: boolean) => {
    for (const { view } of servers) for (const device of view.devices) if ((device.superDeviceId !== undefined) === has) return device;
    return undefined;
  };
  return {
    devices: index.devices,
    withId: index.withSuperDeviceId,
    get firstHas() {
      return servers.find(({ view }) => view.devices.length > 0)?.view.devices[0]!.superDeviceId !== undefined;
    },
    firstWhere,
  };
}

/** RT037's device: only a table with both families has one. */
export function mixedFamily(servers: Servers, index: V1Index): Mixed | undefined {
  if (index.families[4] === 0 || index.families[6] === 0) return undefined;
  let first: DeviceView | undefined;
  let family: 4 | 6 = 4;
  for (const { view } of servers) {
    for (const device of view.devices) {
      if (device.deviceIpKey === undefined) continue;
      if (first === undefined) [first, family] = [device, addressFamily(device.deviceIpKey)];
      else if (addressFamily(device.deviceIpKey) !== family) return { device, first, family };
    }
  }
  return undefined;
}
