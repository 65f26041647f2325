import type { ClusterMode, LinkKind, ServerModel } from "./vocabulary";

/** A die (HCCL device) as the inventory records it. */
export interface DieSpec {
  deviceId: number;
  dieIndex: 0 | 1;
  superDeviceId: number | null;
  deviceIp: string | null;
  devicePort: number | null;
  backupDeviceIp: string | null;
  backupDevicePort: number | null;
  hostPort: number | null;
  /** "2.0" tables only: the rank's network levels, as its level_list gives them. */
  netLevels?: NetLevelSpec[];
}

/** One entry of a "2.0" rank's level_list (lib/rank-table/a5-model.ts). */
export interface NetLevelSpec {
  netLayer: number;
  netInstanceId: string;
  netType: string;
  addresses: NetAddressSpec[];
}

/** One address of a network level: an EID of a die's port group (or a host NIC), its ports and network plane. */
export interface NetAddressSpec {
  addrType: string;
  addr: string;
  ports: string[];
  planeId: string | null;
}

export interface NpuSpec {
  npuIndex: number;
  dies: DieSpec[];
}

export interface ServerSpec {
  serverId: string;
  hostIp: string | null;
  model: ServerModel;
  /** The super pod's `superPodId`, or null in AI Server mode. */
  superPodId: string | null;
  npus: NpuSpec[];
}

/** What the links between a server's dies and others' are worked out from: its id, super pod and dies' ids. */
export interface LinkedServer {
  serverId: string;
  superPodId: string | null;
  npus: readonly { readonly dies: readonly Pick<DieSpec, "deviceId">[] }[];
}

/** A link between two dies, each named by (serverId, deviceId). */
export interface LinkSpec {
  kind: LinkKind;
  source: DieRef;
  target: DieRef;
}

export interface DieRef {
  serverId: string;
  deviceId: number;
}

/** A whole cluster inventory, in rank-table order: super pods, then servers, each server's NPUs and dies. */
export interface ClusterSpec {
  slug: string;
  name: string;
  mode: ClusterMode;
  description: string;
  superPodIds: string[];
  servers: ServerSpec[];
  links: LinkSpec[];
}

export interface InventoryCounts {
  superPods: number;
  servers: number;
  npus: number;
  devices: number;
}

export function countInventory(spec: ClusterSpec): InventoryCounts {
  let npus = 0;
  let devices = 0;
  for (const server of spec.servers) {
    npus += server.npus.length;
    for (const npu of server.npus) devices += npu.dies.length;
  }
  return { superPods: spec.superPodIds.length, servers: spec.servers.length, npus, devices };
}
