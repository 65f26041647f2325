/**
 * Proposes a CPU_AFFINITY_CONF value for a job's processes on one server.
 *
 * - `mode:1` alone when torch_npu's default blocks (ceil(cores / devices) CPUs per visible device, see conf.ts) each
 *   lie on the NPU's own NUMA node and leave `reserve` cores free on every node the job uses.
 * - Otherwise explicit ranges: on each node, the first `reserve` cores stay free (the OS, interrupts, data loading
 *   workers), the rest is split into consecutive, non-overlapping shares, one per NPU of the job on that node.
 *   A node whose CPUs are not consecutive (hyper-thread siblings: `0-23,96-119`) gives each NPU one share of every
 *   run, i.e. several ranges for one NPU, which only recent torch_npu reads (noted).
 * - `mode:2` on request: the same ranges, the hot threads (main, acl, release, hccl watchdog, backward) pinned to
 *   one core each from the range's start; ranges under 6 cores make all threads share it (NPUAffinityController.cpp).
 * The seed's advice stands behind the reserve: pinning hot threads too early makes parent and child threads fight
 * over one core, so keep room on each node.
 */
import { invalid } from "@/lib/errors";
import { checkAffinity } from "./check";
import { defaultRange } from "./conf";
import { formatCpuList, formatInterval, parseCpuList, toIntervals } from "./cpu-list";
import type { AffinityFinding } from "./findings";
import type { CpuLayout } from "./layout";
import type { Bilingual } from "./text";

export interface AffinityPlanInput {
  readonly layout: CpuLayout;
  /** Physical NPUs of the job on this server, in the order its processes take them. */
  readonly npus: readonly number[];
  /** Processes of the job on the server, one per NPU; the first `processes` NPUs are used. Default: every NPU. */
  readonly processes?: number;
  /** Cores kept free on every NUMA node (taken from the lowest-numbered ones). Default 0. */
  readonly reserve?: number;
  readonly mode?: 1 | 2;
}

export interface PlannedRange {
  readonly npu: number;
  readonly physicalNpu: number;
  readonly numaNode: number;
  readonly cpus: string;
  readonly count: number;
}

export interface AffinityPlan {
  /** The proposed CPU_AFFINITY_CONF value. */
  readonly value: string;
  readonly mode: 1 | 2;
  /** True when the value is just the mode: torch_npu's default blocks already fit. */
  readonly usesDefault: boolean;
  /** The ASCEND_RT_VISIBLE_DEVICES the value's npu<N> numbering assumes, when the job uses a subset of NPUs. */
  readonly visibleDevices?: string;
  /** The lines to put in the job's environment. */
  readonly env: string;
  readonly ranges: readonly PlannedRange[];
  readonly reserved: readonly { readonly node: number; readonly cpus: string }[];
  readonly explanations: readonly Bilingual[];
  /** The checker's findings on the proposed value (only notes are expected). */
  readonly findings: readonly AffinityFinding[];
}

export function planAffinity(input: AffinityPlanInput): AffinityPlan {
  const { layout } = input;
  const mode = input.mode ?? 1;
  const reserve = input.reserve ?? 0;
  if (!Number.isInteger(reserve) || reserve < 0) throw invalid("reserve must be a whole number of cores, 0 or more", { code: "invalid_reserve" });
  if (input.npus.length === 0) throw invalid("name the NPUs of the job on this server", { code: "no_npus" });
  if (new Set(input.npus).size !== input.npus.length) throw invalid("an NPU is named twice", { code: "duplicate_npu" });
  const processes = input.processes ?? input.npus.length;
  if (!Number.isInteger(processes) || processes < 1 || processes > input.npus.length) {
    throw invalid(`processes must be between 1 and the ${input.npus.length} NPU(s) named (one process per NPU)`, { code: "invalid_processes" });
  }
  if (layout.npus.length === 0) {
    throw invalid("the NPUs' NUMA nodes are unknown: add the server's `npu-smi info -t topo` output", { code: "topo_required" });
  }
  const homeOf = new Map(layout.npus.map((npu) => [npu.id, npu.numaNode]));
  const used = input.npus.slice(0, processes);
  for (const npu of used) {
    if (!homeOf.has(npu)) throw invalid(`NPU ${npu} is not in the server's topo (it has ${layout.npus.map((n) => n.id).join(", ")})`, { code: "unknown_npu", details: { npu } });
    if (homeOf.get(npu) === null) throw invalid(`NPU ${npu}'s CPU affinity spans several NUMA nodes; give its ranges by hand`, { code: "npu_without_numa", details: { npu } });
  }
  const explanations: Bilingual[] = [];
  if (processes < input.npus.length) {
    explanations.push({
      en: `${processes} process(es): NPUs ${input.npus.slice(processes).join(", ")} get no range.`,
      zh: `${processes} 个进程：NPU ${input.npus.slice(processes).join(", ")} 不分配范围。`,
    });
  }

  // What the processes see: every NPU of the server, or the job's NPUs through ASCEND_RT_VISIBLE_DEVICES.
  const serverNpus = layout.npus.map((npu) => npu.id);
  const all = used.length === serverNpus.length && [...used].sort((a, b) => a - b).every((id, i) => id === serverNpus[i]);
  const visible = all ? serverNpus : used;
  const visibleDevices = all ? undefined : used.join(",");
  if (visibleDevices !== undefined) {
    explanations.push({
      en: `The job uses some of the server's NPUs, so it sets ASCEND_RT_VISIBLE_DEVICES=${visibleDevices}; npu<N> then counts these NPUs from 0.`,
      zh: `作业只使用本服务器的部分 NPU，因此设置 ASCEND_RT_VISIBLE_DEVICES=${visibleDevices}；此时 npu<N> 按这些 NPU 从 0 编号。`,
    });
  }
  const logical = (physical: number) => visible.indexOf(physical);
  const nodeCpus = new Map(layout.numaNodes.map((node) => [node.id, [...node.cpus].sort((a, b) => a - b)]));
  const reservedOf = (node: number) => (nodeCpus.get(node) ?? []).slice(0, reserve);
  const nodesUsed = [...new Set(used.map((npu) => homeOf.get(npu) as number))].sort((a, b) => a - b);
  const reserved = reserve > 0 ? nodesUsed.map((node) => ({ node, cpus: formatCpuList(reservedOf(node)) })) : [];

  // 1. Do torch_npu's default blocks fit?
  const cores = layout.onlineCpus.length;
  const defaults = used.map((physical) => {
    const block = defaultRange(logical(physical), visible.length, cores);
    return { physical, node: homeOf.get(physical) as number, cpus: Array.from({ length: block.to - block.from + 1 }, (_, i) => block.from + i) };
  });
  const onHome = defaults.every(({ node, cpus }) => {
    const home = new Set(nodeCpus.get(node));
    // With few cores the last block can be empty (start past the end): torch_npu would bind nothing.
    return cpus.length > 0 && cpus.every((cpu) => home.has(cpu));
  });
  const leavesReserve = nodesUsed.every((node) => {
    const taken = new Set(defaults.filter((d) => d.node === node).flatMap((d) => d.cpus));
    return (nodeCpus.get(node) ?? []).filter((cpu) => !taken.has(cpu)).length >= reserve;
  });

  let ranges: PlannedRange[];
  let value: string;
  if (onHome && leavesReserve) {
    ranges = defaults.map(({ physical, node, cpus }) => ({ npu: logical(physical), physicalNpu: physical, numaNode: node, cpus: formatCpuList(cpus), count: cpus.length }));
    value = `mode:${mode}`;
    explanations.push({
      en: `mode:${mode} alone: torch_npu's default block for each NPU (${Math.ceil(cores / visible.length)} CPUs of ${cores}, by device number) already lies on the NPU's own NUMA node${reserve > 0 ? ` and leaves ${reserve} core(s) free on each node` : ""}.`,
      zh: `仅用 mode:${mode}：torch_npu 按设备号为每个 NPU 划分的默认范围（${cores} 个 CPU 中每份 ${Math.ceil(cores / visible.length)} 个）已位于该 NPU 所在的 NUMA 节点${reserve > 0 ? `，且每个节点留出 ${reserve} 个空闲核` : ""}。`,
    });
  } else {
    const why: Bilingual = !onHome
      ? {
          en: "Explicit ranges: torch_npu's default blocks do not follow this server's NPU-to-NUMA mapping (device 0 is not on node 0's first CPUs), so mode alone would bind NPUs to a remote node.",
          zh: "使用自定义范围：torch_npu 的默认划分与本服务器的 NPU-NUMA 对应关系不一致（0 号设备不在节点 0 的前几个 CPU 上），只写 mode 会把 NPU 绑到远端节点。",
        }
      : {
          en: `Explicit ranges: the default blocks would leave fewer than ${reserve} free core(s) on a node.`,
          zh: `使用自定义范围：默认划分会使某个节点的空闲核少于 ${reserve} 个。`,
        };
    explanations.push(why);
    ranges = [];
    for (const node of nodesUsed) {
      const sharers = used.filter((npu) => homeOf.get(npu) === node);
      const free = (nodeCpus.get(node) ?? []).slice(reserve);
      const runs = toIntervals(free).filter((run) => run.to - run.from + 1 >= sharers.length);
      if (runs.length === 0) {
        throw invalid(`NUMA node ${node} has ${free.length} core(s) after the reserve of ${reserve}, fewer than its ${sharers.length} NPU(s)`, {
          code: "not_enough_cores",
          details: { node, free: free.length, npus: sharers },
        });
      }
      const shares = new Map<number, number[]>(sharers.map((npu) => [npu, []]));
      for (const run of runs) {
        const size = run.to - run.from + 1;
        const base = Math.floor(size / sharers.length);
        const extra = size % sharers.length;
        let start = run.from;
        sharers.forEach((npu, k) => {
          const take = base + (k < extra ? 1 : 0);
          for (let cpu = start; cpu < start + take; cpu += 1) shares.get(npu)?.push(cpu);
          start += take;
        });
      }
      for (const npu of sharers) {
        const cpus = shares.get(npu) ?? [];
        ranges.push({ npu: logical(npu), physicalNpu: npu, numaNode: node, cpus: formatCpuList(cpus), count: cpus.length });
      }
      explanations.push({
        en: `Node ${node} (${formatCpuList(nodeCpus.get(node) ?? [])}): ${reserve > 0 ? `cores ${formatCpuList(reservedOf(node))} kept free, ` : ""}the rest split between NPU ${sharers.join(", ")} without overlap.`,
        zh: `节点 ${node}（${formatCpuList(nodeCpus.get(node) ?? [])}）：${reserve > 0 ? `保留 ${formatCpuList(reservedOf(node))} 空闲，` : ""}其余核由 NPU ${sharers.join(", ")} 互不重叠地平分。`,
      });
      if (runs.length > 1) {
        explanations.push({
          en: `Node ${node}'s CPUs are not consecutive, so its NPUs get one range per run; only recent torch_npu reads several ranges per NPU.`,
          zh: `节点 ${node} 的 CPU 编号不连续，其 NPU 在每段上各得一个范围；只有较新的 torch_npu 支持一个 NPU 写多个范围。`,
        });
      }
    }
    ranges.sort((a, b) => a.npu - b.npu);
    const parts = ranges.flatMap((range) => toIntervals(parseCpuList(range.cpus) ?? []).map((run) => `npu${range.npu}:${formatIntervalFull(run)}`));
    value = [`mode:${mode}`, ...parts].join(",");
  }
  if (mode === 2) {
    explanations.push({
      en: "mode:2 pins the main, acl, release, HCCL watchdog and backward threads to one core each from the start of the range and leaves the rest to other threads; a range under 6 cores is shared by all.",
      zh: "mode:2 将主线程、acl、release、HCCL watchdog 与反向线程从范围起点起各固定到一个核，其余线程使用剩余核；范围少于 6 个核时所有线程共用。",
    });
    if (ranges.some((range) => range.count < 6)) {
      explanations.push({ en: "Some ranges have fewer than 6 cores: mode:2 gains nothing there.", zh: "部分范围少于 6 个核：mode:2 在这些范围上没有收益。" });
    }
  }
  const check = checkAffinity({ value, layout, jobNpus: used, ...(visibleDevices ? { visibleDevices } : {}) });
  const env = [...(visibleDevices ? [`export ASCEND_RT_VISIBLE_DEVICES=${visibleDevices}`] : []), `export CPU_AFFINITY_CONF=${value}`].join("\n");
  return { value, mode, usesDefault: onHome && leavesReserve, ...(visibleDevices ? { visibleDevices } : {}), env, ranges, reserved, explanations, findings: check.findings };
}

// npu<N>:<a>-<b> always with both ends: the older parser reads "npu0:5" as one core too, but a-b is what the docs show.
const formatIntervalFull = (run: { from: number; to: number }) => (run.from === run.to ? `${run.from}-${run.to}` : formatInterval(run));
