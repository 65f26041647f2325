/**
 * Messages of the rules for the layouts beyond "1.0" and "1.2" (spec section "Other layouts"): the legacy template
 * (RT005, RT070–RT079), "2.0" (RT100–RT129), and the formats that are not HCCL rank tables (RT006). Kept apart from messages.ts, which spreads them in.
 */
import type { LocalizedText } from "./messages";

export const LAYOUT_TEMPLATES = {
  "RT005.mindspore": {
    en: "Legacy layout without version (MindSpore flavour: deploy_mode, device_num, rank_id per instance): HCCL still reads it but does not recommend it; the repair converts it to version \"1.0\"",
    zh: "无 version 的旧版格式（MindSpore 风格：deploy_mode、device_num、每个 instance 的 rank_id）：HCCL 仍可读取但不推荐；修复会将其转换为 version \"1.0\"",
  },
  "RT005.tensorflow": {
    en: "Legacy layout without version (TensorFlow/ModelArts flavour: pod_name, no rank_id; HCCL numbers the ranks by server_id, then device_id): HCCL still reads it but does not recommend it; the repair converts it to version \"1.0\" with explicit ranks",
    zh: "无 version 的旧版格式（TensorFlow/ModelArts 风格：pod_name、无 rank_id；HCCL 按 server_id、再按 device_id 编排 rank）：HCCL 仍可读取但不推荐；修复会将其转换为显式 rank 的 version \"1.0\"",
  },
  RT070: { en: "group_count {value} is not the number of groups in group_list ({count})", zh: "group_count {value} 与 group_list 中的 group 数（{count}）不符" },
  "RT070.missing": { en: "group_count is missing (\"{count}\" here)", zh: "缺少 group_count（此处应为 \"{count}\"）" },
  "RT070.no-groups": { en: "group_list is missing or empty", zh: "group_list 缺失或为空" },
  RT071: { en: "instance_count {value} is not the number of entries of instance_list ({count})", zh: "instance_count {value} 与 instance_list 的条目数（{count}）不符" },
  "RT071.missing": { en: "instance_count is missing (\"{count}\" here)", zh: "缺少 instance_count（此处应为 \"{count}\"）" },
  "RT071.no-instances": { en: "The group's instance_list is missing or empty", zh: "group 的 instance_list 缺失或为空" },
  RT072: { en: "{field} {value} is not the number of devices listed in the group ({count})", zh: "{field} {value} 与该 group 列出的 device 数（{count}）不符" },
  "RT072.missing": { en: "{field} is missing (\"{count}\" here)", zh: "缺少 {field}（此处应为 \"{count}\"）" },
  "RT072.per-instance": {
    en: "{field} {value} differs from instance_count {instances}: the MindSpore flavour needs one device per instance",
    zh: "{field} {value} 与 instance_count {instances} 不同：MindSpore 风格要求每个 instance 一个 device",
  },
  "RT072.server-num-missing": { en: "server_num is missing (\"{count}\" here)", zh: "缺少 server_num（此处应为 \"{count}\"）" },
  "RT072.server-num": { en: "server_num {value} is not the number of servers of the group ({count})", zh: "server_num {value} 与该 group 的 Server 数（{count}）不符" },
  "RT073.no-server-id": { en: "Instance has no server_id", zh: "instance 缺少 server_id" },
  "RT073.long-server-id": { en: "server_id {value} is {length} characters long (at most 64)", zh: "server_id {value} 长度为 {length}（最多 64 个字符）" },
  "RT073.no-pod-name": { en: "Instance has no pod_name (required without deploy_mode)", zh: "instance 缺少 pod_name（无 deploy_mode 时必须配置）" },
  "RT073.pod-name": { en: "pod_name {value} is also used by {other}", zh: "pod_name {value} 已被 {other} 使用" },
  RT074: { en: "Instance {instance} has no devices", zh: "instance {instance} 没有 device" },
  RT075: { en: "device_id {value} is not a whole number from 0 to {max}", zh: "device_id {value} 不是 0 到 {max} 的整数" },
  "RT075.missing": { en: "Device has no device_id", zh: "Device 缺少 device_id" },
  RT076: { en: "device_id {value} is also used on server {server} by {other}", zh: "device_id {value} 在 Server {server} 上已被 {other} 使用" },
  RT077: { en: "device_ip {value} is not a valid IPv4 or IPv6 address", zh: "device_ip {value} 不是有效的 IPv4 或 IPv6 地址" },
  "RT077.placeholder": {
    en: "device_ip {value} is a template placeholder, not an address: fill in the NIC address from /etc/hccn.conf",
    zh: "device_ip {value} 是模板占位符而不是地址：请填入 /etc/hccn.conf 中的网卡地址",
  },
  "RT077.missing": {
    en: "device_ip is missing; it is required when the table has more than one server ({count})",
    zh: "缺少 device_ip；存在多个 Server（{count} 个）时必须配置",
  },
  RT078: { en: "device_ip {value} is also used by {other}", zh: "device_ip {value} 已被 {other} 使用" },
  "RT078.mixed": {
    en: "device_ip {value} is IPv{family}, but {other} uses IPv{firstFamily}: HCCL rejects mixed address families",
    zh: "device_ip {value} 是 IPv{family}，而 {other} 使用 IPv{firstFamily}：HCCL 不允许混用地址族",
  },
  RT079: { en: "rank_id {value} is not a whole number", zh: "rank_id {value} 不是非负整数" },
  "RT079.missing": { en: "Instance has no rank_id (required with deploy_mode)", zh: "instance 缺少 rank_id（有 deploy_mode 时必须配置）" },
  "RT079.duplicate": { en: "rank_id {value} is also used by {other}", zh: "rank_id {value} 已被 {other} 使用" },
  "RT079.range": {
    en: "rank_id {value} is outside 0…{max} ({count} instances), so some rank in that range is missing",
    zh: "rank_id {value} 超出范围 0…{max}（共 {count} 个 instance），该范围内有 rank 缺失",
  },
  "RT079.interleaved": { en: "Server {server} has ranks {ranks}, not one contiguous block", zh: "Server {server} 的 rank 为 {ranks}，不是连续的一段" },
} as const satisfies Record<string, LocalizedText>;
