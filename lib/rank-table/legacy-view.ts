/**
 * The legacy layout without `version` ("template 2": status, group_count, group_list[].instance_list[] with
 * server_id and devices), read into a flat view for the legacy rules (RT070–RT079) and the conversion to "1.0".
 *
 * Two flavours exist, and HCCL tells them apart by one key (HCOMM
 * `src/legacy/ascend910/framework/common/src/topo/topoinfo_ranktableStandard.cc`, `GetDeployMode`: "cloud" mode
 * when the table has no `deploy_mode`):
 * - MindSpore ("lab" mode, `deploy_mode` present): `board_id`, `chip_info`, `para_plane_nic_*` at the top, per group
 *   `device_num` and `server_num`, one device per instance and a `rank_id` per instance. Seen in
 *   `hicann/ge:tests/engines/hccl_engine/stub/v80_rank_table.h` and in the MindSpore model zoo's TinyBERT README
 *   (`"board_id": "0x0020"`, 8 instances of one device, `rank_id` "0"…"7").
 * - TensorFlow / ModelArts ("cloud" mode): per group `device_count`, per instance `pod_name` (unique) and no
 *   `rank_id`; HCCL numbers the ranks itself, servers in the order of their `server_id` (a std::map) and devices by
 *   `device_id` (`GetSortClouldRankList`). Documented as 模板二 in `hicann/hccl:docs/zh/user_guide/cluster_info_config/
 *   rank_table_config_910.md`; real copies in TensorFlow ResNet-50 READMEs (`"group_name": "worker"`,
 *   `"pod_name": "another"`, `"server_id": "127.0.0.1"`).
 */
import { isJsonObject, type JsonObject, type JsonValue } from "./model";
import { addressKey, parseWholeNumber, type AddressKey } from "./net";
import type { ViewReader } from "./table-view";

export type LegacyFlavour = "mindspore" | "tensorflow";

/** Known keys of the legacy layout, from the reference's template 2 and the two flavours' real files. */
const ROOT_KNOWN = new Set([
  "status", "group_count", "group_list", "board_id", "chip_info", "deploy_mode", "para_plane_nic_location", "para_plane_nic_num", "para_plane_nic_name",
]);
const GROUP_KNOWN = new Set(["group_name", "instance_count", "device_count", "device_num", "server_num", "instance_list", "server_list"]);
const INSTANCE_KNOWN = new Set(["pod_name", "server_id", "rank_id", "devices"]);
const DEVICE_KNOWN = new Set(["device_id", "device_ip", "device_port"]);

export interface LegacyDeviceView {
  path: string;
  instance: LegacyInstanceView;
  /** Position in document order over the whole table. */
  order: number;
  deviceId?: string;
  deviceNumber?: number;
  deviceIp?: string;
  deviceIpKey?: AddressKey;
  devicePort?: string;
}

export interface LegacyInstanceView {
  path: string;
  serverId?: string;
  podName?: string;
  rankId?: string;
  rankNumber?: number;
  /** True when `devices` is absent or an empty list. */
  devicesMissing: boolean;
  devices: LegacyDeviceView[];
}

export interface LegacyGroupView {
  path: string;
  instanceCount?: string;
  /** `device_count` (TensorFlow flavour) or `device_num` (MindSpore flavour), whichever the flavour reads. */
  deviceCount?: string;
  deviceCountField: "device_count" | "device_num";
  serverNum?: string;
  /** True when `instance_list` is absent or an empty list. */
  instanceListMissing: boolean;
  instanceEntryCount: number;
  instances: LegacyInstanceView[];
}

export interface LegacyView {
  flavour: LegacyFlavour;
  groupCount?: string;
  /** True when `group_list` is absent or an empty list. */
  groupListMissing: boolean;
  /** True when there is no `group_list` key at all. */
  groupListAbsent: boolean;
  groupEntryCount: number;
  groups: LegacyGroupView[];
  instances: LegacyInstanceView[];
  devices: LegacyDeviceView[];
}

export function legacyFlavour(root: JsonObject): LegacyFlavour {
  return root.deploy_mode === undefined ? "tensorflow" : "mindspore";
}

const isMissingList = (value: JsonValue | undefined) => value === undefined || value === "" || (Array.isArray(value) && value.length === 0);

/** Reads a legacy table (shapes and unknown fields are reported through the reader: RT002–RT004). */
export function readLegacyView(root: JsonObject, reader: ViewReader): LegacyView {
  const top = { path: "" };
  reader.unknownFields(root, ROOT_KNOWN, top);
  const flavour = legacyFlavour(root);
  const groupList = reader.list(root.group_list, "group_list", top);
  const view: LegacyView = {
    flavour,
    groupCount: reader.scalar(root.group_count, "group_count", top),
    groupListMissing: isMissingList(root.group_list),
    groupListAbsent: root.group_list === undefined,
    groupEntryCount: groupList?.length ?? 0,
    groups: [],
    instances: [],
    devices: [],
  };
  groupList?.forEach((entry, index) => {
    const path = `/group_list/${index}`;
    const group = reader.object(entry, path, `group_list/${index}`);
    if (group !== undefined) view.groups.push(readGroup(reader, group, path, view));
  });
  return view;
}

function readGroup(reader: ViewReader, group: JsonObject, path: string, view: LegacyView): LegacyGroupView {
  const owner = { path };
  reader.unknownFields(group, GROUP_KNOWN, owner);
  const deviceCountField = view.flavour === "mindspore" ? "device_num" : "device_count";
  const instanceList = reader.list(group.instance_list, "instance_list", owner);
  const groupView: LegacyGroupView = {
    path,
    instanceCount: reader.scalar(group.instance_count, "instance_count", owner),
    deviceCount: reader.scalar(group[deviceCountField], deviceCountField, owner),
    deviceCountField,
    serverNum: reader.scalar(group.server_num, "server_num", owner),
    instanceListMissing: isMissingList(group.instance_list),
    instanceEntryCount: instanceList?.length ?? 0,
    instances: [],
  };
  instanceList?.forEach((entry, index) => {
    const instancePath = `${path}/instance_list/${index}`;
    const instance = reader.object(entry, instancePath, `instance_list/${index}`);
    if (instance === undefined) return;
    const instanceView = readInstance(reader, instance, instancePath, view);
    groupView.instances.push(instanceView);
    view.instances.push(instanceView);
  });
  return groupView;
}

function readInstance(reader: ViewReader, instance: JsonObject, path: string, view: LegacyView): LegacyInstanceView {
  const owner = { path };
  reader.unknownFields(instance, INSTANCE_KNOWN, owner);
  const rankId = reader.scalar(instance.rank_id, "rank_id", owner);
  const instanceView: LegacyInstanceView = {
    path,
    serverId: reader.scalar(instance.server_id, "server_id", owner),
    podName: reader.scalar(instance.pod_name, "pod_name", owner),
    rankId,
    rankNumber: rankId === undefined ? undefined : parseWholeNumber(rankId),
    devicesMissing: isMissingList(instance.devices),
    devices: [],
  };
  const deviceList = reader.list(instance.devices, "devices", owner);
  deviceList?.forEach((entry, index) => {
    const devicePath = `${path}/devices/${index}`;
    if (!isJsonObject(entry)) {
      reader.wrongShape(devicePath, `devices/${index}`, entry, "object");
      return;
    }
    const device: LegacyDeviceView = { path: devicePath, instance: instanceView, order: view.devices.length };
    reader.unknownFields(entry, DEVICE_KNOWN, device);
    device.deviceId = reader.scalar(entry.device_id, "device_id", device);
    if (device.deviceId !== undefined) device.deviceNumber = parseWholeNumber(device.deviceId);
    device.deviceIp = reader.scalar(entry.device_ip, "device_ip", device);
    if (device.deviceIp !== undefined) device.deviceIpKey = addressKey(device.deviceIp);
    device.devicePort = reader.scalar(entry.device_port, "device_port", device);
    instanceView.devices.push(device);
    view.devices.push(device);
  });
  return instanceView;
}

/** Byte-wise order of two strings, as std::map<std::string> sorts server ids (UTF-16 order agrees for ASCII ids). */
export function compareServerIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The rank HCCL gives each device of a legacy table, by device order: in the MindSpore flavour the instance's
 * `rank_id`; in the TensorFlow flavour the position after sorting servers by `server_id` and devices by `device_id`
 * (`GetSortClouldRankList`). Undefined where the table does not say (no rank_id, no server_id or device_id).
 */
export function impliedLegacyRanks(view: LegacyView): (number | undefined)[] {
  if (view.flavour === "mindspore") return view.devices.map((device) => device.instance.rankNumber);
  const byServer = new Map<string, LegacyDeviceView[]>();
  for (const device of view.devices) {
    const serverId = device.instance.serverId;
    if (serverId === undefined || device.deviceNumber === undefined) continue;
    const list = byServer.get(serverId);
    if (list === undefined) byServer.set(serverId, [device]);
    else list.push(device);
  }
  const ranks: (number | undefined)[] = new Array<number | undefined>(view.devices.length).fill(undefined);
  let next = 0;
  for (const serverId of [...byServer.keys()].sort(compareServerIds)) {
    const devices = byServer.get(serverId)!.slice().sort((a, b) => a.deviceNumber! - b.deviceNumber!);
    for (const device of devices) ranks[device.order] = next++;
  }
  return ranks;
}
