/**
 * The messages of every finding, in English and Chinese. A message names the values involved and, for duplicates
 * and conflicts, the earlier place (a JSON Pointer). Templates use `{name}` placeholders.
 */
import { LAYOUT_TEMPLATES } from "./layout-messages";
import type { Lang } from "./model";

/** A word or phrase that itself needs translating, used as a parameter (e.g. a JSON type name). */
export interface LocalizedText {
  en: string;
  zh: string;
}

export type MessageParam = string | number | LocalizedText;
export type MessageParams = Readonly<Record<string, MessageParam>>;

const AT = { en: " at line {line}, column {column}", zh: "（第 {line} 行第 {column} 列）" };

const TEMPLATES = {
  "RT000.unexpected-character": { en: `Not valid JSON: unexpected character {found}${AT.en}`, zh: `不是有效的 JSON：意外的字符 {found}${AT.zh}` },
  "RT000.unexpected-end": { en: `Not valid JSON: the text ends too early${AT.en}`, zh: `不是有效的 JSON：文本提前结束${AT.zh}` },
  "RT000.unterminated-string": { en: `Not valid JSON: the string starting${AT.en} is not closed`, zh: `不是有效的 JSON：字符串没有结束引号${AT.zh}` },
  "RT000.unterminated-comment": { en: `Not valid JSON: the comment starting${AT.en} is not closed`, zh: `不是有效的 JSON：注释没有以 */ 结束${AT.zh}` },
  "RT000.bad-escape": { en: `Not valid JSON: invalid escape sequence${AT.en}`, zh: `不是有效的 JSON：无效的转义序列${AT.zh}` },
  "RT000.control-character": { en: `Not valid JSON: unescaped control character in a string${AT.en}`, zh: `不是有效的 JSON：字符串中有未转义的控制字符${AT.zh}` },
  "RT000.bad-number": { en: `Not valid JSON: malformed number${AT.en}`, zh: `不是有效的 JSON：数字格式错误${AT.zh}` },
  "RT000.trailing-content": { en: `Not valid JSON: unexpected content after the end of the document${AT.en}`, zh: `不是有效的 JSON：文档结束后还有多余内容${AT.zh}` },
  "RT000.too-deep": { en: `Not a rank table: nested deeper than 64 levels${AT.en}`, zh: `不是 rank table：嵌套超过 64 层${AT.zh}` },
  "RT000.not-object": { en: "The top level is {kind}, but a rank table is a JSON object", zh: "顶层是{kind}，但 rank table 必须是 JSON 对象" },
  RT001: { en: "{count} comment(s) found; they are dropped on export", zh: "发现 {count} 处注释，导出时将被删除" },
  RT002: { en: "Unknown field {field}", zh: "未知字段 {field}" },
  "RT002.generator": {
    en: "Field {field} is not in the HCCL reference (generator tools write it; HCCL ignores it)",
    zh: "字段 {field} 不在 HCCL 参考中（生成工具会写入，HCCL 会忽略）",
  },
  RT003: { en: "{field} is {type} ({value}); HCCL requires a string (\"{value}\")", zh: "{field} 是{type}（{value}），HCCL 要求字符串（\"{value}\"）" },
  RT004: { en: "{field} must be {expected}, not {actual}", zh: "{field} 应为{expected}，而不是{actual}" },
  RT010: { en: "status {value} is not \"completed\" or \"initializing\"", zh: "status {value} 不是 \"completed\" 或 \"initializing\"" },
  "RT010.missing": { en: "status is missing (\"completed\" or \"initializing\")", zh: "缺少 status（\"completed\" 或 \"initializing\"）" },
  RT011: { en: "status is \"initializing\": the table is marked not usable yet", zh: "status 为 \"initializing\"：该 rank table 被标记为尚不可用" },
  RT012: { en: "version {value} is not supported (\"1.0\", \"1.2\" or \"2.0\")", zh: "不支持的 version {value}（应为 \"1.0\"、\"1.2\" 或 \"2.0\"）" },
  "RT012.heterogeneous": {
    en: "version \"1.1\" is the heterogeneous-cluster format, which Rankscope does not check",
    zh: "version \"1.1\" 是异构集群格式，Rankscope 不检查该格式",
  },
  "RT012.missing": {
    en: "version is missing (\"1.0\" for AI Server mode, \"1.2\" for super pod mode)",
    zh: "缺少 version（AI Server 模式为 \"1.0\"，超节点模式为 \"1.2\"）",
  },
  RT013: { en: "{field} needs version \"1.2\" (super pod mode), but version is \"1.0\"", zh: "{field} 需要 version \"1.2\"（超节点模式），但 version 为 \"1.0\"" },
  RT014: { en: "version \"1.2\" without super_pod_list: the table runs in AI Server mode", zh: "version \"1.2\" 但没有 super_pod_list：按 AI Server 模式运行" },
  RT015: { en: "server_count is missing; version \"1.0\" requires it (\"{count}\" here)", zh: "缺少 server_count；version \"1.0\" 必须配置（此处应为 \"{count}\"）" },
  RT016: { en: "server_count {value} does not match the {count} entries of server_list", zh: "server_count {value} 与 server_list 的 {count} 个条目不符" },
  RT017: { en: "server_list is missing or empty", zh: "server_list 缺失或为空" },
  RT020: { en: "Server has no server_id", zh: "Server 缺少 server_id" },
  RT021: { en: "server_id {value} is {length} characters long (at most 64)", zh: "server_id {value} 长度为 {length}（最多 64 个字符）" },
  RT022: { en: "server_id {value} is also used by {other}", zh: "server_id {value} 已被 {other} 使用" },
  RT023: { en: "host_ip {value} is not a plain IPv4 address", zh: "host_ip {value} 不是常规 IPv4 地址" },
  RT024: {
    en: "host_ip is missing: HCCL's operator retry between servers is disabled for server {server}",
    zh: "缺少 host_ip：Server {server} 的 Server 间算子重执行将失效",
  },
  RT025: { en: "Server {server} has no devices", zh: "Server {server} 没有 device" },
  RT026: { en: "host_ip {value} is also used by {other}", zh: "host_ip {value} 已被 {other} 使用" },
  RT030: { en: "Device has no device_id", zh: "Device 缺少 device_id" },
  RT031: { en: "device_id {value} is not a whole number from 0 to 15", zh: "device_id {value} 不是 0 到 15 的整数" },
  RT032: { en: "device_id {value} is also used by {other} on the same server", zh: "device_id {value} 在同一 Server 上已被 {other} 使用" },
  RT033: { en: "super_device_id {value} is not a whole number", zh: "super_device_id {value} 不是非负整数" },
  RT034: { en: "super_device_id {value} is also used by {other} in super pod {pod}", zh: "super_device_id {value} 在超节点 {pod} 中已被 {other} 使用" },
  RT035: { en: "device_ip {value} is not a valid IPv4 or IPv6 address", zh: "device_ip {value} 不是有效的 IPv4 或 IPv6 地址" },
  RT036: { en: "device_ip {value} is also used by {other}", zh: "device_ip {value} 已被 {other} 使用" },
  RT037: {
    en: "device_ip {value} is IPv{family}, but {other} uses IPv{firstFamily}: HCCL rejects mixed address families",
    zh: "device_ip {value} 是 IPv{family}，而 {other} 使用 IPv{firstFamily}：HCCL 不允许混用地址族",
  },
  "RT038.super-pods": {
    en: "device_ip is missing; it is required when the table has more than one super pod ({count})",
    zh: "缺少 device_ip；存在多个超节点（{count} 个）时必须配置",
  },
  "RT038.servers": {
    en: "device_ip is missing; it is required when the table has more than one server ({count})",
    zh: "缺少 device_ip；存在多个 Server（{count} 个）时必须配置",
  },
  RT039: {
    en: "device_ip is missing; it is required if the super pod uses RDMA instead of HCCS (HCCL_INTER_HCCS_DISABLE=TRUE)",
    zh: "缺少 device_ip；若超节点内使用 RDMA 通信（HCCL_INTER_HCCS_DISABLE=TRUE）则必须配置",
  },
  RT040: { en: "{field} {value} is not a port number from 1 to 65535", zh: "{field} {value} 不是 1 到 65535 的端口号" },
  RT041: { en: "{field} {value} is in the system's reserved range 1–1023", zh: "{field} {value} 位于系统保留端口范围 1–1023" },
  RT042: { en: "host_port {value} is also used by {other} on the same server", zh: "host_port {value} 在同一 Server 上已被 {other} 使用" },
  RT043: {
    en: "Port {port} of NIC {ip} is both its device_port ({primary}) and the backup_device_port given for it by {backup}",
    zh: "网卡 {ip} 的端口 {port} 既是其 device_port（{primary}），又是 {backup} 为其配置的 backup_device_port",
  },
  RT044: { en: "Device has no rank_id", zh: "Device 缺少 rank_id" },
  RT045: { en: "rank_id {value} is not a whole number", zh: "rank_id {value} 不是非负整数" },
  RT046: { en: "rank_id {value} is also used by {other}", zh: "rank_id {value} 已被 {other} 使用" },
  RT047: {
    en: "rank_id {value} is outside 0…{max} ({count} devices), so some rank in that range is missing",
    zh: "rank_id {value} 超出范围 0…{max}（共 {count} 个 Device），该范围内有 rank 缺失",
  },
  RT048: {
    en: "Ranks do not follow the physical order: rank_id {value} comes after rank_id {previous} ({other})",
    zh: "rank_id 未按物理顺序排列：rank_id {value} 位于 rank_id {previous}（{other}）之后",
  },
  RT049: { en: "Server {server} has ranks {ranks}, not one contiguous block", zh: "Server {server} 的 rank 为 {ranks}，不是连续的一段" },
  RT050: { en: "backup_device_ip {value} is not a valid IPv4 or IPv6 address", zh: "backup_device_ip {value} 不是有效的 IPv4 或 IPv6 地址" },
  RT051: { en: "backup_device_ip {value} is the device's own device_ip", zh: "backup_device_ip {value} 与本 Device 的 device_ip 相同" },
  RT052: {
    en: "backup_device_ip {value} belongs to {other} (device_id {otherDeviceId}), not to the other die of this NPU (device_id {partner} of the same server)",
    zh: "backup_device_ip {value} 属于 {other}（device_id {otherDeviceId}），而不是同一 NPU 的另一个 Die（同一 Server 的 device_id {partner}）",
  },
  RT053: {
    en: "backup_device_ip {value} names {other} as backup, but that device's backup_device_ip is {partnerBackup}",
    zh: "backup_device_ip {value} 指向 {other}，但该 Device 的 backup_device_ip 为 {partnerBackup}",
  },
  RT054: { en: "backup_device_port {value} is set without backup_device_ip", zh: "配置了 backup_device_port {value}，但没有 backup_device_ip" },
  "RT054.v10": {
    en: "{field} only takes effect in super pod mode (version \"1.2\"); version \"1.0\" ignores it",
    zh: "{field} 仅在超节点模式（version \"1.2\"）下生效；version \"1.0\" 会忽略它",
  },
  RT055: {
    en: "No device of this table has backup_device_ip {value}: rail borrowing needs both dies of the NPU in the same job",
    zh: "本表中没有 device_ip 为 {value} 的 Device：借轨通信要求同一 NPU 的两个 Die 属于同一任务",
  },
  RT060: { en: "Super pod has no super_pod_id", zh: "超节点缺少 super_pod_id" },
  RT061: { en: "super_pod_id {value} is also used by {other}", zh: "super_pod_id {value} 已被 {other} 使用" },
  RT062: { en: "server_id {value} is not in server_list", zh: "server_id {value} 不在 server_list 中" },
  "RT062.missing": { en: "Super pod server entry has no server_id", zh: "超节点的 Server 条目缺少 server_id" },
  RT063: { en: "Server {value} is already listed in super pod {pod} ({other})", zh: "Server {value} 已列在超节点 {pod} 中（{other}）" },
  RT064: { en: "Server {value} is in no super pod of super_pod_list", zh: "Server {value} 不属于 super_pod_list 中的任何超节点" },
  RT065: {
    en: "The servers of super pod {pod} are not contiguous in server_list (positions {positions})",
    zh: "超节点 {pod} 的 Server 在 server_list 中不连续（位置 {positions}）",
  },
  RT066: { en: "Super pod {pod} has no servers", zh: "超节点 {pod} 没有 Server" },
  "RT067.partial": {
    en: "Only {count} of {total} devices have super_device_id: HCCL falls back to AI Server mode",
    zh: "{total} 个 Device 中只有 {count} 个配置了 super_device_id：HCCL 将回退到 AI Server 模式",
  },
  "RT067.no-pods": {
    en: "super_device_id is present but super_pod_list is missing: HCCL falls back to AI Server mode",
    zh: "配置了 super_device_id 但缺少 super_pod_list：HCCL 将回退到 AI Server 模式",
  },
  "RT067.no-super-device-ids": {
    en: "super_pod_list is present but no device has super_device_id: HCCL falls back to AI Server mode",
    zh: "配置了 super_pod_list 但没有 Device 配置 super_device_id：HCCL 将回退到 AI Server 模式",
  },
  ...LAYOUT_TEMPLATES,
} as const satisfies Record<string, LocalizedText>;

export type MessageId = keyof typeof TEMPLATES;

/** Names of JSON types, for RT003/RT004 and RT000.not-object. */
export const JSON_TYPE_NAMES = {
  string: { en: "a string", zh: "字符串" },
  number: { en: "a JSON number", zh: "JSON 数字" },
  boolean: { en: "a JSON boolean", zh: "JSON 布尔值" },
  null: { en: "JSON null", zh: "JSON null" },
  array: { en: "a list", zh: "列表" },
  object: { en: "an object", zh: "对象" },
} as const satisfies Record<string, LocalizedText>;

export const NONE_TEXT: LocalizedText = { en: "(none)", zh: "（无）" };

const MAX_SHOWN_LENGTH = 64;

/**
 * Shows a value from the input inside a message: as-is when it is short and plain (`192.168.1.6`), else quoted
 * with JSON escapes and cut to a bounded length, so one line of output stays one line and stays short.
 */
export function showValue(value: string): string {
  const plain = value.length > 0 && value.length <= MAX_SHOWN_LENGTH && !/[\s"\\\p{Cc}]/u.test(value);
  if (plain) return value;
  const cut = value.length > MAX_SHOWN_LENGTH ? `${value.slice(0, MAX_SHOWN_LENGTH)}…` : value;
  return JSON.stringify(cut);
}

export function formatMessage(id: MessageId, params: MessageParams, lang: Lang): string {
  return TEMPLATES[id][lang].replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const param = params[name];
    if (param === undefined) return placeholder;
    if (typeof param === "object") return param[lang];
    return typeof param === "number" ? String(param) : showValue(param);
  });
}

/** Every message id, e.g. for tests that check both languages exist. */
export const MESSAGE_IDS = Object.keys(TEMPLATES) as MessageId[];
