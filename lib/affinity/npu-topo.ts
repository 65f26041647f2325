/**
 * `npu-smi info -t topo` output → each NPU's links and its CPU affinity.
 *
 * Shapes seen in what users posted:
 * - Atlas 800T A2 (8 × 910B3): a header `NPU0 … NPU7 CPU Affinity` (often led by a tab), one row per NPU with
 *   HCCS cells and the affinity last, NPU0 and NPU1 on `144-167`, not on node 0 (modelscope/ms-swift NPU docs,
 *   "npu-smi info -t topo" on 8 × 910B3; the same table with NPU1 on `0-23` in an Ascend device-plugin test).
 * - PCIe cards: PXB/SYS/PIX cells, `NPU0  X  PXB  SYS  PXB  144-167` (an Ascend device-plugin unit test's topoInfo).
 * - Atlas A3: `NPU0 NPU1 NIC0` with `UB` / `NA` cells and no `CPU Affinity` column
 *   (ModelEngine-Group/unified-cache-management#865 tests: "topology without cpu affinity falls back").
 * - the `Legend:` block (`X = Self`, `SYS = Path traversing PCIe and NUMA nodes…`, `HCCS = Connection traversing
 *   HCCS.`, `NA = Unknown relationship.`).
 * vllm-ascend reads the last cell of each `NPU` row as the affinity (vllm_ascend/cpu_binding.py
 * `parse_topo_affinity`). A container shows only its NPUs, so rows may skip numbers (NPU4, NPU5 only): the row's
 * own name is the NPU's number. Unknown lines are kept.
 */
import { parseCpuList } from "./cpu-list";
import { splitLines, type ParseProblem, type UnknownLine } from "./text";

export interface TopoNpu {
  readonly id: number;
  /** Link type to each other column (`HCCS`, `PIX`, `SYS`, `UB`, …), by column name. */
  readonly links: Readonly<Record<string, string>>;
  /** CPUs from the `CPU Affinity` column; null when the table has none or the cell is not a CPU list. */
  readonly affinity: readonly number[] | null;
  readonly line: number;
}

export interface TopoReport {
  /** Column names of the header, without `CPU Affinity`. */
  readonly columns: readonly string[];
  readonly hasAffinityColumn: boolean;
  readonly npus: readonly TopoNpu[];
  readonly legend: readonly { readonly code: string; readonly meaning: string }[];
  readonly unknownLines: readonly UnknownLine[];
  readonly problems: readonly ParseProblem[];
}

// Header cells are device names ending in a number (NPU3, NIC0) plus `CPU Affinity`; row cells are link types.
const HEADER = /^\s*NPU\d+(\s+([A-Za-z]+\d+|CPU|Affinity))*\s*$/;
const ROW = /^\s*NPU(\d+)\s+(.*)$/;
const LEGEND = /^\s*(\S+)\s*=\s*(.+?)\s*$/;

export function parseNpuTopo(text: string): TopoReport {
  let columns: string[] | null = null;
  let hasAffinityColumn = false;
  const npus: TopoNpu[] = [];
  const legend: { code: string; meaning: string }[] = [];
  const unknownLines: UnknownLine[] = [];
  const problems: ParseProblem[] = [];
  let inLegend = false;

  splitLines(text).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    if (/^\s*Legend\s*:?\s*$/i.test(raw)) {
      inLegend = true;
      return;
    }
    if (inLegend) {
      const entry = LEGEND.exec(raw);
      if (entry !== null) {
        legend.push({ code: entry[1] ?? "", meaning: entry[2] ?? "" });
        return;
      }
      inLegend = false;
    }
    if (columns === null && HEADER.test(raw)) {
      const normalised = raw.trim().replace(/CPU\s+Affinity/i, "CPU_AFFINITY");
      const names = normalised.split(/\s+/);
      hasAffinityColumn = names.includes("CPU_AFFINITY");
      columns = names.filter((name) => name !== "CPU_AFFINITY");
      return;
    }
    const row = ROW.exec(raw);
    if (row === null || columns === null) {
      unknownLines.push({ line, text: raw });
      return;
    }
    const cells = (row[2] ?? "").trim().split(/\s+/);
    const links: Record<string, string> = {};
    columns.forEach((column, position) => {
      if (cells[position] !== undefined) links[column] = cells[position];
    });
    let affinity: number[] | null = null;
    if (hasAffinityColumn) {
      const cell = cells.length > columns.length ? cells[cells.length - 1] : undefined;
      affinity = cell === undefined ? null : parseCpuList(cell);
      if (affinity === null || affinity.length === 0) {
        affinity = null;
        problems.push({
          line,
          text: raw,
          message: {
            en: `NPU${row[1]}: no CPU list in the CPU Affinity column (found ${JSON.stringify(cell ?? "")})`,
            zh: `NPU${row[1]}：CPU Affinity 列中没有 CPU 列表（实际为 ${JSON.stringify(cell ?? "")}）`,
          },
        });
      }
    }
    npus.push({ id: Number(row[1]), links, affinity, line });
  });

  return { columns: columns ?? [], hasAffinityColumn, npus, legend, unknownLines, problems };
}
