/**
 * The checker's findings: stable codes CA001…, a severity, and a message and a fix in English and Chinese.
 * Codes never change meaning; new checks get new codes.
 */
import type { Bilingual } from "./text";

export type Severity = "error" | "warning" | "info";

export interface AffinityFinding {
  readonly code: AffinityCode;
  readonly severity: Severity;
  readonly message: Bilingual;
  readonly fix: Bilingual;
  /** The `npu<N>` (logical) number the finding is about, and the physical NPU it lands on. */
  readonly npu?: number;
  readonly physicalNpu?: number;
  /** The other NPU of an overlap. */
  readonly otherNpu?: number;
  /** The CPUs concerned, as a CPU list. */
  readonly cpus?: string;
  /** Where in the value (0-based, end exclusive), when one token is at fault. */
  readonly at?: { readonly start: number; readonly end: number };
}

interface Params {
  token?: string;
  npu?: number;
  other?: number;
  physical?: number | string;
  cpus?: string;
  node?: number;
  nodes?: string;
  npuNode?: number;
  count?: number;
  online?: string;
  visible?: string;
  value?: string;
  key?: string;
  suggestion?: string;
}

interface Rule {
  readonly severity: Severity;
  readonly message: (p: Params) => Bilingual;
  readonly fix: (p: Params) => Bilingual;
}

export const AFFINITY_RULES = {
  CA001: {
    severity: "error",
    message: (p) => ({
      en: `"${p.token}" is not an option torch_npu understands (expected mode:<n>, <n> or npu<N>:<a>-<b>)`,
      zh: `“${p.token}”不是 torch_npu 能识别的选项（应为 mode:<n>、<n> 或 npu<N>:<a>-<b>）`,
    }),
    fix: () => ({
      en: "Write options separated by commas without spaces, e.g. mode:1,npu0:0-23",
      zh: "选项之间用逗号分隔且不加空格，例如 mode:1,npu0:0-23",
    }),
  },
  CA002: {
    severity: "error",
    message: (p) => ({
      en: `mode "${p.value}" is not a number; torch_npu ignores it and binds nothing`,
      zh: `mode 的值“${p.value}”不是数字，torch_npu 会忽略它，不绑核`,
    }),
    fix: () => ({ en: "Use mode:1 (NUMA-level) or mode:2 (main threads pinned)", zh: "使用 mode:1（按 NUMA 粗粒度绑核）或 mode:2（细粒度，主要线程固定到核）" }),
  },
  CA003: {
    severity: "warning",
    message: (p) => ({
      en: `binding is off (mode ${p.value ?? "missing"})${p.count ? `: the ${p.count} npu<N> override(s) have no effect` : ""}`,
      zh: `绑核未开启（mode ${p.value ?? "缺失"}）${p.count ? `：${p.count} 个 npu<N> 自定义范围不会生效` : ""}`,
    }),
    fix: () => ({ en: "Add mode:1 or mode:2 in front of the overrides", zh: "在自定义范围前加上 mode:1 或 mode:2" }),
  },
  CA004: {
    severity: "warning",
    message: (p) => ({
      en: `unknown option "${p.key}": torch_npu ignores it silently`,
      zh: `未知选项“${p.key}”：torch_npu 会静默忽略`,
    }),
    fix: () => ({
      en: "Remove it; the options are mode, npu<N>, and in newer torch_npu force and npu_affine",
      zh: "删除该选项；可用选项为 mode、npu<N>，较新的 torch_npu 还支持 force 与 npu_affine",
    }),
  },
  CA005: {
    severity: "error",
    message: (p) => ({
      en: `npu${p.npu}: range ${p.cpus} starts after it ends, so the thread mask is empty and binding fails`,
      zh: `npu${p.npu}：范围 ${p.cpus} 的起点大于终点，线程掩码为空，绑核失败`,
    }),
    fix: (p) => ({ en: `Write the range low-high, e.g. npu${p.npu}:${p.suggestion}`, zh: `按“小-大”书写范围，例如 npu${p.npu}:${p.suggestion}` }),
  },
  CA006: {
    severity: "error",
    message: (p) => ({
      en: `npu${p.npu}: CPUs ${p.cpus} are not online on this server (online: ${p.online})`,
      zh: `npu${p.npu}：CPU ${p.cpus} 不在本服务器的在线 CPU 中（在线：${p.online}）`,
    }),
    fix: () => ({ en: "Keep the range inside the online CPUs listed by lscpu", zh: "把范围限制在 lscpu 列出的在线 CPU 内" }),
  },
  CA007: {
    severity: "error",
    message: (p) => ({
      en: `npu${p.npu}: range ${p.cpus} crosses NUMA nodes ${p.nodes}, so threads reach memory across nodes`,
      zh: `npu${p.npu}：范围 ${p.cpus} 跨越 NUMA 节点 ${p.nodes}，线程会跨 NUMA 访问内存`,
    }),
    fix: (p) => ({
      en: `Keep each range inside one node${p.npuNode !== undefined ? `, the NPU's node ${p.npuNode}` : ""}`,
      zh: `每个范围只放在一个 NUMA 节点内${p.npuNode !== undefined ? `，即该 NPU 所在的节点 ${p.npuNode}` : ""}`,
    }),
  },
  CA008: {
    severity: "warning",
    message: (p) => ({
      en: `npu${p.npu} (NPU ${p.physical}) is on NUMA node ${p.npuNode}, but its range ${p.cpus} is on node ${p.node}`,
      zh: `npu${p.npu}（物理 NPU ${p.physical}）位于 NUMA 节点 ${p.npuNode}，但其范围 ${p.cpus} 位于节点 ${p.node}`,
    }),
    fix: (p) => ({ en: `Move the range to node ${p.npuNode}'s CPUs`, zh: `把范围移到节点 ${p.npuNode} 的 CPU 上` }),
  },
  CA009: {
    severity: "error",
    message: (p) => ({
      en: `npu${p.npu} and npu${p.other} share CPUs ${p.cpus}: their processes compete for the same cores`,
      zh: `npu${p.npu} 与 npu${p.other} 共用 CPU ${p.cpus}：两个进程会争抢相同的核`,
    }),
    fix: () => ({
      en: "Give each NPU its own cores on its node (rankscope affinity plan proposes non-overlapping ranges)",
      zh: "为每个 NPU 在其所在节点上分配独占的核（rankscope affinity plan 可给出互不重叠的范围）",
    }),
  },
  CA010: {
    severity: "warning",
    message: (p) => ({
      en: `npu${p.npu} (NPU ${p.physical}) is not used by this job; the override does nothing`,
      zh: `本作业未使用 npu${p.npu}（物理 NPU ${p.physical}），该自定义范围不起作用`,
    }),
    fix: () => ({ en: "Remove the override or check the job's NPUs", zh: "删除该自定义范围，或核对作业使用的 NPU" }),
  },
  CA011: {
    severity: "error",
    message: (p) => ({
      en: `npu${p.npu} does not exist for the process: it sees ${p.count} device(s)${p.visible ? ` (ASCEND_RT_VISIBLE_DEVICES=${p.visible})` : ""}, numbered from 0, so torch_npu ignores this override`,
      zh: `进程中不存在 npu${p.npu}：进程可见 ${p.count} 个设备${p.visible ? `（ASCEND_RT_VISIBLE_DEVICES=${p.visible}）` : ""}，从 0 开始编号，torch_npu 会忽略该自定义范围`,
    }),
    fix: (p) => ({
      en: `npu<N> counts the visible devices, not the physical ones${p.suggestion ? `: write ${p.suggestion}` : ""}`,
      zh: `npu<N> 按可见设备编号，而非物理编号${p.suggestion ? `：应写为 ${p.suggestion}` : ""}`,
    }),
  },
  CA012: {
    severity: "warning",
    message: (p) => ({
      en: `mode:${p.value}'s default range for npu${p.npu} (NPU ${p.physical}) is ${p.cpus}, but the NPU is on NUMA node ${p.npuNode}: this server's NPU-to-NUMA mapping is not the default`,
      zh: `mode:${p.value} 为 npu${p.npu}（物理 NPU ${p.physical}）默认绑定 ${p.cpus}，但该 NPU 位于 NUMA 节点 ${p.npuNode}：本服务器的 NPU 与 NUMA 对应关系不是默认关系`,
    }),
    fix: (p) => ({
      en: `Override the range on node ${p.npuNode}${p.suggestion ? `, e.g. ${p.suggestion}` : ""} (rankscope affinity plan writes the whole value)`,
      zh: `在节点 ${p.npuNode} 上自定义范围${p.suggestion ? `，例如 ${p.suggestion}` : ""}（rankscope affinity plan 可生成完整取值）`,
    }),
  },
  CA013: {
    severity: "info",
    message: (p) => ({
      en: `npu${p.npu} has several ranges: only the newest torch_npu binds to all of them, older versions keep the last`,
      zh: `npu${p.npu} 有多个范围：只有最新的 torch_npu 会全部使用，旧版本只保留最后一个`,
    }),
    fix: () => ({ en: "Use one range per NPU unless every host runs a recent torch_npu", zh: "除非所有主机都使用较新的 torch_npu，否则每个 NPU 只写一个范围" }),
  },
  CA014: {
    severity: "warning",
    message: (p) => ({
      en: `the NUMA node of NPU ${p.physical} is unknown${p.nodes ? ` (its affinity spans nodes ${p.nodes})` : ""}: node checks skipped`,
      zh: `物理 NPU ${p.physical} 的 NUMA 节点未知${p.nodes ? `（其亲和 CPU 跨节点 ${p.nodes}）` : ""}：跳过节点检查`,
    }),
    fix: () => ({
      en: "Add the server's `npu-smi info -t topo` output (the CPU Affinity column)",
      zh: "补充本服务器的 `npu-smi info -t topo` 输出（含 CPU Affinity 列）",
    }),
  },
  CA015: {
    severity: "error",
    message: (p) => ({
      en: `ASCEND_RT_VISIBLE_DEVICES=${p.visible} ${p.physical !== undefined ? `names NPU ${p.physical}, which this server does not have` : "is not a comma-separated list of NPU numbers"}`,
      zh: `ASCEND_RT_VISIBLE_DEVICES=${p.visible} ${p.physical !== undefined ? `包含本服务器没有的 NPU ${p.physical}` : "不是以逗号分隔的 NPU 编号列表"}`,
    }),
    fix: () => ({ en: "List the physical NPU numbers the process may use, e.g. 0,1,2,3", zh: "列出进程可使用的物理 NPU 编号，例如 0,1,2,3" }),
  },
  CA016: {
    severity: "info",
    message: (p) => ({
      en: `"${p.key}" is read only by newer torch_npu versions; older ones ignore it`,
      zh: `“${p.key}”只有较新的 torch_npu 才识别，旧版本会忽略`,
    }),
    fix: () => ({ en: "Check the torch_npu version on the hosts", zh: "核对主机上的 torch_npu 版本" }),
  },
} satisfies Record<string, Rule>;

export type AffinityCode = keyof typeof AFFINITY_RULES;

export function finding(
  code: AffinityCode,
  params: Params,
  extra: Omit<AffinityFinding, "code" | "severity" | "message" | "fix"> = {},
): AffinityFinding {
  const rule: Rule = AFFINITY_RULES[code];
  return { code, severity: rule.severity, message: rule.message(params), fix: rule.fix(params), ...extra };
}
