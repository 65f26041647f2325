/**
 * The rank table editor's costs on "2.0" (rank_list) tables of 16,384, 131,072 and 524,288 ranks (issue 21 item 3:
 * a 524,288-rank table opens in under 10 s and answers an edit in under 300 ms). Measured in Node, one stage at a
 * time, split by the thread that pays it in the browser:
 *
 * - worker: parse the text, validate, and per edit apply + validate + index the findings (in full, and with the
 *   incremental validator the worker uses: editor-incremental.ts);
 * - main thread: receive the parsed table (a structured clone, as postMessage does), derive the grid rows and tree,
 *   and per edit apply the edit and re-derive the rows from the previous ones.
 *
 * Wall time and CPU time (process.cpuUsage, user + system) are both printed: on a loaded machine wall time is noise.
 * `RANKSCOPE_BENCH_EDITOR_SIZES` (comma-separated rank counts, multiples of 64) picks the sizes.
 */
import { parseRankTable, validateRankTable, writeRankTable, generateA5Table, type JsonValue } from "../../lib/rank-table";
import { applyEdit } from "../../lib/rank-table-workspace/edit";
import { indexIssues, tableStructure } from "../../lib/rank-table-workspace/structure";
import { rankTableBodyLimit } from "../../db/schema/rank-table/constants";
import { incrementalFigures } from "./editor-incremental";
import { hostedOpenFigures } from "./editor-hosted";

const DEFAULT_SIZES = [16_384, 131_072, 524_288];
const NPUS_PER_RACK = 64;

interface Timing {
  wall: number;
  cpu: number;
}

/** One run of `work`, its wall and CPU milliseconds. */
function timed<T>(work: () => T): { value: T } & Timing {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const value = work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { value, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** The fastest of `runs` runs (by CPU time), after one warm-up. */
function fastest(runs: number, work: () => unknown): Timing {
  work();
  let best: Timing = { wall: Infinity, cpu: Infinity };
  for (let run = 0; run < runs; run++) {
    const { wall, cpu } = timed(work);
    if (cpu < best.cpu) best = { wall, cpu };
  }
  return best;
}

const fmt = ({ wall, cpu }: Timing) => `${cpu.toFixed(0)} ms CPU (${wall.toFixed(0)} ms wall)`;

function sizes(): number[] {
  const wanted = process.env.RANKSCOPE_BENCH_EDITOR_SIZES;
  return wanted ? wanted.split(",").map((size) => Number(size.trim())) : DEFAULT_SIZES;
}

/**
 * The table's canonical text; when that is longer than a JavaScript string can be (V8: 2^29 - 24 characters, which a
 * 524,288-rank "2.0" table passes at about 1.7 KB a rank with two-space indent), the same table without indent.
 * The generated objects are not kept: the table measured is the one parsed from the text, as in the editor.
 */
function tableText(ranks: number): { text: string; note: string } {
  const table = generateA5Table({ racks: ranks / NPUS_PER_RACK, npusPerRack: NPUS_PER_RACK }) as unknown as JsonValue;
  try {
    return { text: writeRankTable(table), note: "" };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { text: JSON.stringify(table), note: " without indent (the canonical two-space text is longer than a string can be)" };
  }
}

function measure(ranks: number): void {
  const { text, note } = tableText(ranks);
  const bytes = Buffer.byteLength(text);
  const limit = rankTableBodyLimit;
  console.log(`\n${ranks.toLocaleString("en")} ranks ("2.0"): ${(bytes / 1024 / 1024).toFixed(1)} MiB of text${note} (save body limit ${(limit / 1024 / 1024).toFixed(0)} MiB: ${bytes + 64 <= limit ? "fits" : "exceeds"})`);

  const parsed = timed(() => parseRankTable(text).value!);
  const validated = timed(() => validateRankTable(parsed.value));
  const cloned = timed(() => structuredClone(parsed.value).constructor);
  const structure = timed(() => tableStructure(parsed.value));
  console.log(`  open, worker: parse ${fmt(parsed)}, validate ${fmt(validated)} (${validated.value.issues.length} findings)`);
  console.log(`  open, main thread: receive the parsed table (structured clone) ${fmt(cloned)}, grid rows and tree ${fmt(structure)}`);
  console.log(`  open, total on the critical path to first rows (parse → clone → rows): ${(parsed.cpu + cloned.cpu + structure.cpu).toFixed(0)} ms CPU`);

  const rank = Math.floor(ranks / 2);
  let value = 0;
  const edit = () => ({ type: "setRank" as const, rank, field: "device_port", value: String(16_000 + (value++ % 1000)) });
  const workerEdit = fastest(3, () => indexIssues(validateRankTable(applyEdit(parsed.value, edit())).issues));
  const previous = structure.value;
  const mainEdit = fastest(3, () => tableStructure(applyEdit(parsed.value, edit()), previous));
  console.log(`  edit, worker: apply + validate + index findings ${fmt(workerEdit)}`);
  console.log(`  edit, main thread: apply + grid rows from the previous ones ${fmt(mainEdit)}`);
  incrementalFigures(parsed.value, ranks, mainEdit);
  console.log("  (the above is the path that sends the table to the main thread; tables of 8,192 rows or more now take the one below)");
}

/** Prints the figures for each size. */
export function largeTableFigures(): void {
  for (const ranks of sizes()) {
    if (process.env.RANKSCOPE_BENCH_EDITOR_HOSTED_ONLY) console.log(`\n${ranks.toLocaleString("en")} ranks ("2.0")`);
    else measure(ranks);
    hostedOpenFigures(ranks);
  }
}
