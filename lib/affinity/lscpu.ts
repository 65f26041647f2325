/**
 * `lscpu` output → the server's CPUs and NUMA nodes.
 *
 * Shapes seen in what users posted:
 * - util-linux ≤ 2.34, flat "Key:   value" lines with `NUMA node0 CPU(s):     0-11`
 *   (FDio/csit#2553 https://github.com/FDio/csit/issues/2553, Stephenzhou718/test#19 with interleaved lists
 *   `0,2,4,…`).
 * - util-linux ≥ 2.35, indented under section headers (`NUMA:` then `  NUMA node0 CPU(s):  0-7`), empty lists
 *   for memory-only nodes (bytedance/xpu-perf#129, GH200: `NUMA node1 CPU(s):` with nothing after it),
 *   Kunpeng 920 Ascend hosts with 192 CPUs, 4 sockets, or `Socket(s): -` with `Cluster(s): 4`
 *   (vllm-project/vllm-ascend#5650, #1903, #4284).
 * - Chinese locale: full-width colons and translated keys, `NUMA 节点0 CPU：  0-31,64-95`, `在线 CPU 列表：`,
 *   `型号名称：`, `座：`, `NUMA 节点：` (pages quoting Hygon/Kunpeng hosts; a Kunpeng-920 collect_env in
 *   Chinese with `NUMA 节点7 CPU： 224-255`).
 * - `lscpu -e=CPU,NODE` / `lscpu -p`-like tables, as vllm-ascend's cpu_binding.py reads them
 *   (vllm-project/vllm-ascend: vllm_ascend/cpu_binding.py `build_cpu_node_map`).
 * - util-linux ≥ 2.38 on Kunpeng 920: `Core(s) per cluster`, `Socket(s): -`, `Cluster(s): 4`, `Caches (sum of all):`
 *   (kvcache-ai/ktransformers#1776, a paste cut short after `NUMA node6`; PaddlePaddle/PaddleOCR#11268, 2 sockets).
 * Wrapped continuation lines (long `Flags:`) belong to the field above. Anything else is kept as an unknown line.
 * A paste cut short (online CPUs that no node line holds, fewer node lines than `NUMA node(s):` says) is reported as
 * a problem: the checker cannot place those CPUs on a node.
 */
import { formatCpuList, parseCpuList } from "./cpu-list";
import { splitLines, type ParseProblem, type UnknownLine } from "./text";

export interface NumaNode {
  readonly id: number;
  readonly cpus: readonly number[];
}

export interface LscpuReport {
  readonly architecture?: string;
  readonly modelName?: string;
  readonly vendor?: string;
  /** `CPU(s):` */
  readonly cpuCount?: number;
  /** `On-line CPU(s) list:` */
  readonly onlineCpus?: readonly number[];
  readonly sockets?: number;
  readonly coresPerSocket?: number;
  readonly threadsPerCore?: number;
  /** `NUMA node(s):` as printed (it may count memory-only nodes without CPUs). */
  readonly numaNodeCount?: number;
  /** Nodes in id order, with their CPUs (possibly none). */
  readonly numaNodes: readonly NumaNode[];
  /** Every other `key: value` line, kept as printed. */
  readonly fields: readonly { readonly key: string; readonly value: string; readonly line: number }[];
  readonly unknownLines: readonly UnknownLine[];
  readonly problems: readonly ParseProblem[];
}

// "key: value" with an ASCII or full-width colon; keys may contain "(s)", spaces, digits and CJK.
const FIELD = /^\s*([^:：]+?)\s*[:：]\s*(.*?)\s*$/;
// `NUMA node3 CPU(s):` / `NUMA 节点3 CPU：`
const NUMA_KEY = /^NUMA\s*(?:node|节点)\s*(\d+)\s*CPU(?:\(s\))?$/i;
const CPU_NODE_HEADER = /^\s*CPU\s+NODE\b/i;
const CPU_NODE_ROW = /^\s*(\d+)\s+(\d+|-)\b/;

type Numeric = "cpuCount" | "sockets" | "coresPerSocket" | "threadsPerCore" | "numaNodeCount";
type Textual = "architecture" | "modelName" | "vendor";

// English and Chinese (zh_CN util-linux translations) spellings of the keys we read.
const NUMERIC_KEYS: Record<string, Numeric> = {
  "cpu(s)": "cpuCount",
  cpu: "cpuCount",
  "socket(s)": "sockets",
  座: "sockets",
  "core(s) per socket": "coresPerSocket",
  每个座的核数: "coresPerSocket",
  "thread(s) per core": "threadsPerCore",
  每个核的线程数: "threadsPerCore",
  "numa node(s)": "numaNodeCount",
  "numa 节点": "numaNodeCount",
};
const TEXT_KEYS: Record<string, Textual> = {
  architecture: "architecture",
  架构: "architecture",
  "model name": "modelName",
  型号名称: "modelName",
  "vendor id": "vendor",
  "厂商 id": "vendor",
};
const ONLINE_KEYS = new Set(["on-line cpu(s) list", "在线 cpu 列表"]);

const badList = (what: string): ParseProblem["message"] => ({
  en: `${what}: not a CPU list (expected numbers and ranges such as 0-23,96-119)`,
  zh: `${what}：不是 CPU 列表（应为数字和范围，如 0-23,96-119）`,
});

export function parseLscpu(text: string): LscpuReport {
  const numeric: Partial<Record<Numeric, number>> = {};
  const textual: Partial<Record<Textual, string>> = {};
  let onlineCpus: number[] | undefined;
  const nodes = new Map<number, Set<number>>();
  const fields: { key: string; value: string; line: number }[] = [];
  const unknownLines: UnknownLine[] = [];
  const problems: ParseProblem[] = [];
  let inCpuNodeTable = false;
  let lastWasField = false;
  let countLine: { line: number; text: string } | undefined;

  const nodeCpus = (id: number): Set<number> => {
    let cpus = nodes.get(id);
    if (cpus === undefined) nodes.set(id, (cpus = new Set()));
    return cpus;
  };

  splitLines(text).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") {
      lastWasField = false;
      return;
    }
    if (CPU_NODE_HEADER.test(raw)) {
      inCpuNodeTable = true;
      return;
    }
    if (inCpuNodeTable) {
      const row = CPU_NODE_ROW.exec(raw);
      if (row !== null) {
        // A CPU without a node ("-") is offline or memory-less; it belongs to no node.
        if (row[2] !== "-") nodeCpus(Number(row[2])).add(Number(row[1]));
        return;
      }
      inCpuNodeTable = false;
    }
    const field = FIELD.exec(raw);
    if (field === null) {
      // A wrapped `Flags:` value continues on indented lines without a colon.
      if (lastWasField && /^\s{8,}\S/.test(raw)) return;
      unknownLines.push({ line, text: raw });
      lastWasField = false;
      return;
    }
    lastWasField = true;
    const key = (field[1] ?? "").trim();
    const value = field[2] ?? "";
    const lower = key.toLowerCase();
    const numa = NUMA_KEY.exec(key);
    if (numa !== null) {
      const cpus = parseCpuList(value);
      // A node listed without CPUs (memory only) is still a node.
      const node = nodeCpus(Number(numa[1]));
      if (cpus === null) problems.push({ line, text: raw, message: badList(key) });
      else cpus.forEach((cpu) => node.add(cpu));
      return;
    }
    if (ONLINE_KEYS.has(lower)) {
      const cpus = parseCpuList(value);
      if (cpus === null) problems.push({ line, text: raw, message: badList(key) });
      else onlineCpus = cpus;
      return;
    }
    const numericKey = NUMERIC_KEYS[lower];
    if (numericKey !== undefined && /^\d+$/.test(value)) {
      numeric[numericKey] = Number(value);
      if (numericKey === "numaNodeCount") countLine = { line, text: raw };
      return;
    }
    const textKey = TEXT_KEYS[lower];
    if (textKey !== undefined && value !== "") {
      textual[textKey] = value;
      return;
    }
    fields.push({ key, value, line });
  });

  const numaNodes = [...nodes.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, cpus]) => ({ id, cpus: [...cpus].sort((a, b) => a - b) }));
  problems.push(...cutShort(numaNodes, onlineCpus, numeric.numaNodeCount, countLine));
  return { ...numeric, ...textual, ...(onlineCpus ? { onlineCpus } : {}), numaNodes, fields, unknownLines, problems };
}

/** A paste that lost its last node lines: online CPUs in no node, or fewer node lines than announced. */
function cutShort(numaNodes: readonly NumaNode[], onlineCpus: readonly number[] | undefined, announced: number | undefined, countLine: { line: number; text: string } | undefined): ParseProblem[] {
  if (numaNodes.length === 0) return [];
  const placed = new Set(numaNodes.flatMap((node) => node.cpus));
  const orphans = (onlineCpus ?? []).filter((cpu) => !placed.has(cpu));
  const where = countLine ?? { line: 0, text: "" };
  const problems: ParseProblem[] = [];
  if (announced !== undefined && numaNodes.length < announced) {
    problems.push({
      ...where,
      message: {
        en: `NUMA node(s) says ${announced} but only ${numaNodes.length} node line(s) were found: was the paste cut short?`,
        zh: `NUMA 节点数为 ${announced}，但只找到 ${numaNodes.length} 行节点信息：粘贴的内容是否不完整？`,
      },
    });
  }
  if (orphans.length > 0) {
    const list = formatCpuList(orphans);
    problems.push({
      ...where,
      message: {
        en: `online CPUs ${list} are in no NUMA node line: ranges on them cannot be checked against a node`,
        zh: `在线 CPU ${list} 不属于任何 NUMA 节点行：落在这些 CPU 上的范围无法按节点检查`,
      },
    });
  }
  return problems;
}
