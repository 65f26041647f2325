/**
 * A server's CPU layout: its NUMA nodes with their CPUs and each NPU's NUMA node, from `lscpu` and (optionally)
 * `npu-smi info -t topo`. This is what the checker and the planner reason about, and what the inventory stores.
 */
import { invalid } from "@/lib/errors";
import { parseLscpu, type LscpuReport } from "./lscpu";
import { parseNpuTopo, type TopoReport } from "./npu-topo";
import type { ParseProblem, UnknownLine } from "./text";

export interface LayoutNpu {
  readonly id: number;
  /** The CPUs npu-smi names as the NPU's affinity. */
  readonly cpus: readonly number[];
  /** The one NUMA node holding those CPUs; null when they span several nodes or none. */
  readonly numaNode: number | null;
  /** Every node the affinity touches (one, normally). */
  readonly nodes: readonly number[];
}

export interface CpuLayout {
  readonly modelName?: string;
  /** Nodes that have CPUs, in id order. */
  readonly numaNodes: readonly { readonly id: number; readonly cpus: readonly number[] }[];
  /** The online CPUs (what torch_npu counts with sysconf(_SC_NPROCESSORS_ONLN)). */
  readonly onlineCpus: readonly number[];
  /** NPUs with a CPU affinity, in id order; empty without a topo text. */
  readonly npus: readonly LayoutNpu[];
}

/** The layout plus what its inputs held that was not understood. */
export interface LayoutReading {
  readonly layout: CpuLayout;
  readonly lscpu: { readonly unknownLines: readonly UnknownLine[]; readonly problems: readonly ParseProblem[] };
  readonly topo?: {
    readonly unknownLines: readonly UnknownLine[];
    readonly problems: readonly ParseProblem[];
    readonly hasAffinityColumn: boolean;
  };
}

export function layoutFrom(lscpu: LscpuReport, topo?: TopoReport): CpuLayout {
  const numaNodes = lscpu.numaNodes.filter((node) => node.cpus.length > 0);
  if (numaNodes.length === 0) {
    throw invalid("the lscpu text has no \"NUMA node<N> CPU(s):\" line with CPUs (paste the whole lscpu output)", {
      code: "lscpu_without_numa",
    });
  }
  const fromNodes = [...new Set(numaNodes.flatMap((node) => node.cpus))].sort((a, b) => a - b);
  const onlineCpus = lscpu.onlineCpus && lscpu.onlineCpus.length > 0 ? lscpu.onlineCpus : fromNodes;
  const nodeOf = new Map<number, number>();
  for (const node of numaNodes) for (const cpu of node.cpus) nodeOf.set(cpu, node.id);
  const npus: LayoutNpu[] = (topo?.npus ?? [])
    .filter((npu) => npu.affinity !== null)
    .map((npu) => {
      const cpus = npu.affinity ?? [];
      const nodes = [...new Set(cpus.map((cpu) => nodeOf.get(cpu)).filter((id) => id !== undefined))].sort((a, b) => a - b);
      return { id: npu.id, cpus, nodes, numaNode: nodes.length === 1 ? (nodes[0] ?? null) : null };
    })
    .sort((a, b) => a.id - b.id);
  return { ...(lscpu.modelName ? { modelName: lscpu.modelName } : {}), numaNodes, onlineCpus, npus };
}

/** Reads the two pasted texts into a layout, keeping what was not understood. */
export function readLayout(lscpuText: string, topoText?: string): LayoutReading {
  const lscpu = parseLscpu(lscpuText);
  const topo = topoText === undefined || topoText.trim() === "" ? undefined : parseNpuTopo(topoText);
  return {
    layout: layoutFrom(lscpu, topo),
    lscpu: { unknownLines: lscpu.unknownLines, problems: lscpu.problems },
    ...(topo
      ? { topo: { unknownLines: topo.unknownLines, problems: topo.problems, hasAffinityColumn: topo.hasAffinityColumn } }
      : {}),
  };
}

/** The node each CPU belongs to. */
export function cpuNodeMap(layout: CpuLayout): Map<number, number> {
  const map = new Map<number, number>();
  for (const node of layout.numaNodes) for (const cpu of node.cpus) map.set(cpu, node.id);
  return map;
}
