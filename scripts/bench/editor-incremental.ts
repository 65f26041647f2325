/**
 * The worker's validation of one edit with the incremental validator (lib/rank-table/incremental), on the "2.0"
 * tables of editor-large.ts: the first, full validation that builds its indexes, the memory those take, and each
 * kind of edit (apply + validate + index the findings, as the worker and editor do), beside the full re-validation
 * it replaces. Run with `node --expose-gc` (NODE_OPTIONS) for the memory figure; without it the figure includes
 * garbage and says so.
 */
import { isJsonObject, validateRankTable, type JsonObject, type JsonValue } from "../../lib/rank-table";
import { IncrementalValidator } from "../../lib/rank-table/incremental";
import { applyEdit, type Edit } from "../../lib/rank-table-workspace/edit";
import { indexIssues } from "../../lib/rank-table-workspace/structure";

export interface Timing {
  wall: number;
  cpu: number;
}

function timed<T>(work: () => T): { value: T } & Timing {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const value = work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { value, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const fmt = ({ wall, cpu }: Timing) => `${cpu.toFixed(0)} ms CPU (${wall.toFixed(0)} ms wall)`;

function heapUsed(): { bytes: number; exact: boolean } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return { bytes: process.memoryUsage().heapUsed, exact: gc !== undefined };
}

const firstAddress = (entry: JsonObject) => ((entry.level_list as JsonObject[])[0]!.rank_addr_list as JsonObject[])[0]!;
const ranksOf = (table: JsonValue) => (table as JsonObject).rank_list as JsonObject[];

/** The table with rank `rank`'s first address set to `addr` (one rank_list entry replaced, the rest shared). */
function setAddress(table: JsonValue, rank: number, addr: string): JsonValue {
  const ranks = ranksOf(table);
  const copy = structuredClone(ranks[rank]!);
  firstAddress(copy).addr = addr;
  const next = ranks.slice();
  next[rank] = copy;
  return { ...(table as JsonObject), rank_list: next };
}

type Step = (table: JsonValue) => JsonValue;

/** Edit kinds, each a pair: the edit and the one that undoes it (so every run starts from the same table). */
function editKinds(table: JsonValue, ranks: number): { name: string; steps: [Step, Step] }[] {
  const middle = Math.floor(ranks / 2);
  const own = firstAddress(ranksOf(table)[middle]!).addr as string;
  const taken = firstAddress(ranksOf(table)[0]!).addr as string;
  const set = (edit: Edit): Step => (table) => applyEdit(table, edit);
  return [
    { name: "one field (device_port)", steps: [set({ type: "setRank", rank: middle, field: "device_port", value: "16001" }), set({ type: "setRank", rank: middle, field: "device_port", value: undefined })] },
    { name: "rank_id → another rank's (RT106 duplicate, RT108)", steps: [set({ type: "setRank", rank: middle, field: "rank_id", value: "7" }), set({ type: "setRank", rank: middle, field: "rank_id", value: String(middle) })] },
    { name: "rank_count (a header field)", steps: [set({ type: "set", path: {}, field: "rank_count", value: "1" }), set({ type: "set", path: {}, field: "rank_count", value: String(ranks) })] },
    { name: "an EID copied from rank 0 (RT124 duplicate; one entry replaced)", steps: [(current) => setAddress(current, middle, taken), (current) => setAddress(current, middle, own)] },
  ];
}

/** Prints the incremental validator's figures for a parsed "2.0" table of `ranks` ranks. */
export function incrementalFigures(table: JsonValue, ranks: number, mainThread: Timing): void {
  if (!isJsonObject(table)) return;
  const before = heapUsed();
  const validator = new IncrementalValidator();
  const first = timed(() => validator.validate(table));
  const after = heapUsed();
  const megabytes = (after.bytes - before.bytes) / 1024 / 1024;
  console.log(`  incremental validator, first (full) validation: ${fmt(first)} (${first.value.issues.length} findings); its indexes: ${megabytes.toFixed(0)} MiB of heap${after.exact ? "" : " (no --expose-gc: garbage included)"}`);

  let current: JsonValue = table;
  for (const { name, steps } of editKinds(table, ranks)) {
    const timings: Timing[] = [];
    let runs = "";
    for (let run = 0; run < 6; run++) {
      const step = steps[run % 2]!;
      const { value, wall, cpu } = timed(() => {
        const next = step(current);
        indexIssues(validator.validate(next).issues);
        return next;
      });
      current = value;
      runs = validator.lastRun;
      timings.push({ wall, cpu });
    }
    timings.sort((a, b) => a.cpu - b.cpu);
    const [best, median, worst] = [timings[0]!, timings[3]!, timings[5]!];
    const total = { cpu: median.cpu + mainThread.cpu, wall: median.wall + mainThread.wall };
    console.log(`  edit, worker (incremental validator, last run ${runs}): ${name}: apply + validate + index findings, of 6: best ${fmt(best)}, median ${fmt(median)}, slowest ${fmt(worst)} (a garbage collection of the whole heap lands in some run)`);
    console.log(`    median with the main thread's share: ${fmt(total)} (target < 300 ms)`);
  }
  // Undo, a repair or a language switch sends the whole table again (a structured clone, not timed here).
  const clone = structuredClone(current) as JsonValue;
  const whole = timed(() => validator.validate(clone));
  console.log(`  the whole table sent again (a clone, as after undo): validate ${fmt(whole)} [${validator.lastRun}]`);
  // Exactness on the real size, once: the last report equals a full validation of the same table.
  const edited = applyEdit(table, { type: "setRank", rank: 1, field: "rank_id", value: "0" });
  const same = JSON.stringify(validator.validate(edited)) === JSON.stringify(validateRankTable(edited));
  console.log(`  incremental report after a duplicate rank_id equals validateRankTable's: ${same ? "yes" : "NO"}`);
}
