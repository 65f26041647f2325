/**
 * Rules of the legacy layout without `version` (RT070–RT079), as HCCL's "Standard" parser for it checks them:
 * HCOMM `src/legacy/ascend910/framework/common/src/topo/topoinfo_ranktableStandard.cc` (`GetGroupList`,
 * `GetInstanceList`, `GetLabSingleGroup`, `GetCloudDevList`, `GetDevList`) and the field table of template 2 in
 * `hicann/hccl:docs/zh/user_guide/cluster_info_config/rank_table_config_910.md`. Where the two flavours differ the
 * rule follows the flavour's own parser path.
 */
import type { Findings } from "../findings";
import { MAX_DEVICE_ID, MAX_SERVER_ID_LENGTH } from "../model";
import { addressFamily, parseWholeNumber } from "../net";
import type { LegacyDeviceView, LegacyGroupView, LegacyView } from "../legacy-view";
import { formatRanges, isContiguous, rememberFirst } from "./context";

/** The cloud (TensorFlow) path rejects device_id above 7: "deviceid in 0 ~ 7" (`GetCloudDevList`). */
const MAX_CLOUD_DEVICE_ID = 7;

/**
 * Values a template asks the user to replace: "xxx.xxx.xxx.xxx", "xx.xx.xx.xx", "[device_ip_0]", "<ip>", "${IP}".
 * They are invalid addresses like any other, but the message says the template was never filled in.
 */
const PLACEHOLDER = /^(?:x{1,3}(?:\.x{1,3}){3}|\[.*\]|<.*>|\$\{.*\}|\{.*\})$/i;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

export function checkLegacy(view: LegacyView, findings: Findings): void {
  checkGroupCount(view, findings);
  for (const group of view.groups) checkGroup(group, view, findings);
  checkInstances(view, findings);
  checkDevices(view, findings);
  if (view.flavour === "mindspore") checkRanks(view, findings);
}

/** RT070: group_count is required, a whole number ≥ 1, and the number of groups (`GetGroupList`). */
function checkGroupCount(view: LegacyView, findings: Findings): void {
  if (view.groupListMissing) findings.addMessage("RT070", "RT070.no-groups", view.groupListAbsent ? "" : "/group_list");
  const count = view.groupCount === undefined ? undefined : parseWholeNumber(view.groupCount);
  if (view.groupCount === undefined) findings.addMessage("RT070", "RT070.missing", "", { count: view.groupEntryCount });
  else if (count === undefined || count === 0 || (!view.groupListMissing && count !== view.groupEntryCount)) {
    findings.add("RT070", "/group_count", { value: view.groupCount, count: view.groupEntryCount });
  }
}

/** RT071 instance_count, RT072 device_count / device_num and server_num of one group. */
function checkGroup(group: LegacyGroupView, view: LegacyView, findings: Findings): void {
  const instanceCount = group.instanceCount === undefined ? undefined : parseWholeNumber(group.instanceCount);
  if (group.instanceListMissing) findings.addMessage("RT071", "RT071.no-instances", group.path);
  if (group.instanceCount === undefined) {
    findings.addMessage("RT071", "RT071.missing", group.path, { count: group.instanceEntryCount });
  } else if (instanceCount === undefined || instanceCount === 0 || (!group.instanceListMissing && instanceCount !== group.instanceEntryCount)) {
    findings.add("RT071", `${group.path}/instance_count`, { value: group.instanceCount, count: group.instanceEntryCount });
  }

  const field = group.deviceCountField;
  const listed = group.instances.reduce((sum, instance) => sum + instance.devices.length, 0);
  const deviceCount = group.deviceCount === undefined ? undefined : parseWholeNumber(group.deviceCount);
  if (group.deviceCount === undefined) {
    findings.addMessage("RT072", "RT072.missing", group.path, { field, count: listed });
  } else if (deviceCount === undefined || deviceCount === 0 || deviceCount !== listed) {
    findings.add("RT072", `${group.path}/${field}`, { field, value: group.deviceCount, count: listed });
  } else if (view.flavour === "mindspore" && instanceCount !== undefined && instanceCount !== deviceCount) {
    // The lab path requires one device per instance: "instance num error" (`GetLabSingleGroup`).
    findings.addMessage("RT072", "RT072.per-instance", `${group.path}/${field}`, { field, value: group.deviceCount, instances: group.instanceCount! });
  }
  if (view.flavour === "mindspore") {
    const servers = new Set(group.instances.map((instance) => instance.serverId).filter((id) => id !== undefined)).size;
    const serverNum = group.serverNum === undefined ? undefined : parseWholeNumber(group.serverNum);
    if (group.serverNum === undefined) findings.addMessage("RT072", "RT072.server-num-missing", group.path, { count: servers });
    else if (serverNum !== servers) findings.addMessage("RT072", "RT072.server-num", `${group.path}/server_num`, { value: group.serverNum, count: servers });
  }
}

/** RT073 server_id and pod_name, RT074 devices of each instance. */
function checkInstances(view: LegacyView, findings: Findings): void {
  const byPodName = new Map<string, string>();
  for (const instance of view.instances) {
    if (instance.serverId === undefined) findings.addMessage("RT073", "RT073.no-server-id", instance.path);
    else if (instance.serverId.length > MAX_SERVER_ID_LENGTH) {
      findings.addMessage("RT073", "RT073.long-server-id", `${instance.path}/server_id`, { value: instance.serverId, length: instance.serverId.length });
    }
    if (view.flavour === "tensorflow") {
      // pod_name is required and unique in the cloud path (`GetCloudDevList`: CheckUniqueAndInsertPool POD_NAME).
      if (instance.podName === undefined) findings.addMessage("RT073", "RT073.no-pod-name", instance.path);
      else {
        const earlier = rememberFirst(byPodName, instance.podName, instance.path);
        if (earlier) findings.addMessage("RT073", "RT073.pod-name", `${instance.path}/pod_name`, { value: instance.podName, other: earlier });
      }
    }
    if (instance.devicesMissing) findings.add("RT074", instance.path, { instance: instance.podName ?? instance.serverId ?? instance.path });
  }
}

/** RT075–RT078: device_id, its uniqueness per server, device_ip and its uniqueness. */
function checkDevices(view: LegacyView, findings: Findings): void {
  const maxDeviceId = view.flavour === "tensorflow" ? MAX_CLOUD_DEVICE_ID : MAX_DEVICE_ID;
  const servers = new Set(view.instances.map((instance) => instance.serverId)).size;
  const byServerDevice = new Map<string, LegacyDeviceView>();
  const byIp = new Map<string | number, LegacyDeviceView>();
  let first: { family: 4 | 6; device: LegacyDeviceView } | undefined;
  let mixedReported = false;
  for (const device of view.devices) {
    const { deviceId, deviceNumber, deviceIp, deviceIpKey } = device;
    if (deviceId === undefined) findings.addMessage("RT075", "RT075.missing", device.path);
    else if (deviceNumber === undefined || deviceNumber > maxDeviceId) findings.add("RT075", `${device.path}/device_id`, { value: deviceId, max: maxDeviceId });
    else if (device.instance.serverId !== undefined) {
      const earlier = rememberFirst(byServerDevice, `${deviceNumber}\u0000${device.instance.serverId}`, device);
      if (earlier) findings.add("RT076", `${device.path}/device_id`, { value: deviceId, server: device.instance.serverId, other: earlier.path });
    }

    if (deviceIp === undefined) {
      // Several servers talk over the device NICs, so each needs its address (as RT038 in "1.0").
      if (servers > 1) findings.addMessage("RT077", "RT077.missing", device.path, { count: servers });
    } else if (deviceIpKey === undefined) {
      findings.addMessage("RT077", isPlaceholder(deviceIp) ? "RT077.placeholder" : "RT077", `${device.path}/device_ip`, { value: deviceIp });
    } else {
      const earlier = rememberFirst(byIp, deviceIpKey, device);
      if (earlier) findings.add("RT078", `${device.path}/device_ip`, { value: deviceIp, other: earlier.path });
      const family = addressFamily(deviceIpKey);
      if (first === undefined) first = { family, device };
      else if (family !== first.family && !mixedReported) {
        mixedReported = true;
        findings.addMessage("RT078", "RT078.mixed", `${device.path}/device_ip`, { value: deviceIp, family, other: first.device.path, firstFamily: first.family });
      }
    }
  }
}

/** RT079: the MindSpore flavour's rank_id per instance: present, a whole number, unique, in range, one block per server. */
function checkRanks(view: LegacyView, findings: Findings): void {
  const total = view.instances.length;
  const byRank = new Map<number, string>();
  const ranksByServer = new Map<string, number[]>();
  for (const instance of view.instances) {
    const { rankId, rankNumber } = instance;
    if (rankId === undefined) {
      findings.addMessage("RT079", "RT079.missing", instance.path);
      continue;
    }
    if (rankNumber === undefined) {
      findings.add("RT079", `${instance.path}/rank_id`, { value: rankId });
      continue;
    }
    const earlier = rememberFirst(byRank, rankNumber, instance.path);
    if (earlier) findings.addMessage("RT079", "RT079.duplicate", `${instance.path}/rank_id`, { value: rankId, other: earlier });
    if (rankNumber >= total) findings.addMessage("RT079", "RT079.range", `${instance.path}/rank_id`, { value: rankId, max: total - 1, count: total });
    if (instance.serverId !== undefined) {
      const ranks = ranksByServer.get(instance.serverId);
      if (ranks === undefined) ranksByServer.set(instance.serverId, [rankNumber]);
      else ranks.push(rankNumber);
    }
  }
  for (const [server, ranks] of ranksByServer) {
    ranks.sort((a, b) => a - b);
    if (!isContiguous(ranks)) {
      const instance = view.instances.find((candidate) => candidate.serverId === server)!;
      findings.addMessage("RT079", "RT079.interleaved", instance.path, { server, ranks: formatRanges(ranks) });
    }
  }
}
