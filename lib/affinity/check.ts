/**
 * Checks a CPU_AFFINITY_CONF value against one server's CPU layout and the job's NPUs on it.
 *
 * What torch_npu does with the value (Ascend/pytorch NPUAffinityController.cpp @00d21b2c, see conf.ts): the process
 * sees D devices (all NPUs, or those of ASCEND_RT_VISIBLE_DEVICES, renumbered from 0); device i binds, in mode 1,
 * to its `npu<i>` override or else to the i-th block of ceil(cores / D) CPUs. The seed's traps are checked on that
 * result: device 0 is not always on NUMA node 0 (CA012), ranges that cross nodes defeat the purpose (CA007), NPUs
 * sharing a node get overlapping ranges (CA009, vllm-project/vllm-ascend#8600 "A2相同亲和性的NPU…绑核范围重合导致性能下降").
 */
import { toIntervals, formatCpuList, formatInterval } from "./cpu-list";
import { defaultRange, parseAffinityConf, parseVisibleDevices, type ConfToken } from "./conf";
import { finding, type AffinityFinding } from "./findings";
import { cpuNodeMap, type CpuLayout } from "./layout";

export interface AffinityCheckInput {
  readonly value: string;
  readonly layout: CpuLayout;
  /** Physical NPUs the job's processes use on this server; every visible NPU when absent. */
  readonly jobNpus?: readonly number[];
  /** The job's ASCEND_RT_VISIBLE_DEVICES, when it sets one. */
  readonly visibleDevices?: string;
}

/** Where one visible device ends up bound. */
export interface NpuBinding {
  /** The `npu<N>` number (the process's device index). */
  readonly npu: number;
  readonly physicalNpu: number | null;
  readonly numaNode: number | null;
  readonly cpus: readonly number[];
  readonly source: "override" | "default";
  readonly used: boolean;
}

export interface AffinityCheck {
  readonly value: string;
  readonly mode: number;
  readonly findings: readonly AffinityFinding[];
  readonly bindings: readonly NpuBinding[];
  readonly errors: number;
  readonly warnings: number;
}

type RangeToken = Extract<ConfToken, { kind: "range" }>;

const span = (token: ConfToken, offset: number) => ({ start: offset + token.start, end: offset + token.start + token.text.length });
const rangeCpus = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export function checkAffinity(input: AffinityCheckInput): AffinityCheck {
  const { layout } = input;
  const conf = parseAffinityConf(input.value);
  const findings: AffinityFinding[] = [];
  const online = new Set(layout.onlineCpus);
  const nodeOf = cpuNodeMap(layout);
  const npuNode = new Map(layout.npus.map((npu) => [npu.id, npu]));
  const jobNpus = input.jobNpus ? new Set(input.jobNpus) : undefined;

  for (const token of conf.tokens) {
    const at = span(token, conf.offset);
    if (token.kind === "malformed") findings.push(finding("CA001", { token: token.text }, { at }));
    else if (token.kind === "mode" && token.mode === null) findings.push(finding("CA002", { value: token.raw }, { at }));
    else if (token.kind === "unknown_option") findings.push(finding("CA004", { key: token.key }, { at }));
    else if (token.kind === "newer_option") findings.push(finding("CA016", { key: token.key }, { at }));
  }

  // What the process sees, in device order.
  let visible: readonly number[] | undefined;
  if (input.visibleDevices !== undefined && input.visibleDevices.trim() !== "") {
    const parsed = parseVisibleDevices(input.visibleDevices);
    if (parsed === null) findings.push(finding("CA015", { visible: input.visibleDevices }));
    else {
      visible = parsed;
      if (npuNode.size > 0) {
        for (const physical of parsed.filter((id) => !npuNode.has(id))) {
          findings.push(finding("CA015", { visible: input.visibleDevices, physical }, { physicalNpu: physical }));
        }
      }
    }
  } else if (layout.npus.length > 0) visible = layout.npus.map((npu) => npu.id);
  else if (input.jobNpus && input.jobNpus.length > 0) visible = [...input.jobNpus].sort((a, b) => a - b);
  const devices = visible?.length;
  const physicalOf = (npu: number): number | null => visible?.[npu] ?? null;
  const isUsed = (physical: number | null) => jobNpus === undefined || physical === null || jobNpus.has(physical);
  const unknownNode = new Set<number | string>();
  const noteUnknownNode = (physical: number | null) => {
    const key = physical ?? "?";
    if (unknownNode.has(key)) return;
    unknownNode.add(key);
    const spans = physical === null ? undefined : npuNode.get(physical)?.nodes;
    findings.push(
      finding("CA014", { physical: key, nodes: spans && spans.length > 1 ? spans.join(", ") : undefined }, physical === null ? {} : { physicalNpu: physical }),
    );
  };

  // The overrides, each checked on its own.
  const overrides = new Map<number, number[]>();
  const ranges = conf.tokens.filter((token): token is RangeToken => token.kind === "range");
  for (const token of ranges) {
    const at = span(token, conf.offset);
    const physical = physicalOf(token.npu);
    const base = { npu: token.npu, at, ...(physical === null ? {} : { physicalNpu: physical }) };
    if (token.from > token.to) {
      findings.push(finding("CA005", { npu: token.npu, cpus: `${token.from}-${token.to}`, suggestion: `${token.to}-${token.from}` }, base));
      continue;
    }
    const text = formatInterval({ from: token.from, to: token.to });
    if (devices !== undefined && token.npu >= devices) {
      const logical = visible?.indexOf(token.npu) ?? -1;
      const suggestion = input.visibleDevices && logical >= 0 ? `npu${logical}:${text}` : undefined;
      findings.push(finding("CA011", { npu: token.npu, count: devices, visible: input.visibleDevices, suggestion }, base));
      continue;
    }
    const cpus = rangeCpus(token.from, token.to);
    const offline = cpus.filter((cpu) => !online.has(cpu));
    if (offline.length > 0) {
      findings.push(finding("CA006", { npu: token.npu, cpus: formatCpuList(offline), online: formatCpuList(layout.onlineCpus) }, { ...base, cpus: formatCpuList(offline) }));
    }
    const nodes = [...new Set(cpus.map((cpu) => nodeOf.get(cpu)).filter((node) => node !== undefined))].sort((a, b) => a - b);
    const home = physical === null ? undefined : npuNode.get(physical)?.numaNode ?? undefined;
    if (nodes.length > 1) {
      findings.push(finding("CA007", { npu: token.npu, cpus: text, nodes: nodes.join(", "), npuNode: home }, { ...base, cpus: text }));
    } else if (nodes.length === 1 && home !== undefined && nodes[0] !== home) {
      findings.push(finding("CA008", { npu: token.npu, physical: physical ?? "?", cpus: text, node: nodes[0], npuNode: home }, { ...base, cpus: text }));
    } else if (home === undefined && conf.mode >= 1 && conf.mode <= 2) noteUnknownNode(physical);
    if (!isUsed(physical)) findings.push(finding("CA010", { npu: token.npu, physical: physical ?? "?" }, base));
    const previous = overrides.get(token.npu);
    if (previous !== undefined && !findings.some((f) => f.code === "CA013" && f.npu === token.npu)) {
      findings.push(finding("CA013", { npu: token.npu }, base));
    }
    overrides.set(token.npu, [...(previous ?? []), ...cpus]);
  }

  const bindings: NpuBinding[] = [];
  if (conf.mode !== 1 && conf.mode !== 2) {
    const modeToken = conf.tokens.findLast((token) => token.kind === "mode");
    const shown = modeToken?.kind === "mode" ? modeToken.raw : undefined;
    if (!findings.some((f) => f.code === "CA002")) findings.push(finding("CA003", { value: shown, count: ranges.length }));
    return summarise(conf.value, conf.mode, findings, bindings);
  }

  // Mode 1 or 2: every visible device gets its override or its default block.
  const cores = layout.onlineCpus.length;
  const deviceIds = devices !== undefined ? Array.from({ length: devices }, (_, i) => i) : [...overrides.keys()].sort((a, b) => a - b);
  if (devices === undefined) noteUnknownNode(null);
  for (const npu of deviceIds) {
    const physical = physicalOf(npu);
    const home = physical === null ? null : npuNode.get(physical)?.numaNode ?? null;
    const used = isUsed(physical);
    const override = overrides.get(npu);
    if (override !== undefined) {
      bindings.push({ npu, physicalNpu: physical, numaNode: home, cpus: [...new Set(override)].sort((a, b) => a - b), source: "override", used });
      continue;
    }
    if (devices === undefined) continue;
    const block = defaultRange(npu, devices, cores);
    const cpus = rangeCpus(block.from, block.to);
    bindings.push({ npu, physicalNpu: physical, numaNode: home, cpus, source: "default", used });
    if (!used) continue;
    if (home === null) {
      noteUnknownNode(physical);
      continue;
    }
    const homeCpus = new Set(layout.numaNodes.find((node) => node.id === home)?.cpus ?? []);
    if (cpus.some((cpu) => !homeCpus.has(cpu))) {
      const first = toIntervals([...homeCpus])[0];
      const suggestion = first ? `npu${npu}:${formatInterval(first)}` : undefined;
      const text = formatInterval(block);
      findings.push(finding("CA012", { value: String(conf.mode), npu, physical: physical ?? "?", cpus: text, npuNode: home, suggestion }, { npu, cpus: text, ...(physical === null ? {} : { physicalNpu: physical }) }));
    }
  }

  // Overlaps between the NPUs the job runs on this host.
  const active = bindings.filter((binding) => binding.used);
  active.forEach((first, i) => {
    const mine = new Set(first.cpus);
    for (const second of active.slice(i + 1)) {
      const shared = second.cpus.filter((cpu) => mine.has(cpu));
      if (shared.length === 0) continue;
      const cpus = formatCpuList(shared);
      findings.push(finding("CA009", { npu: first.npu, other: second.npu, cpus }, { npu: first.npu, otherNpu: second.npu, cpus }));
    }
  });
  return summarise(conf.value, conf.mode, findings, bindings);
}

function summarise(value: string, mode: number, findings: AffinityFinding[], bindings: NpuBinding[]): AffinityCheck {
  return {
    value,
    mode,
    findings,
    bindings,
    errors: findings.filter((f) => f.severity === "error").length,
    warnings: findings.filter((f) => f.severity === "warning").length,
  };
}
