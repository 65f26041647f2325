/**
 * A validator that keeps what it learnt from the last table, for the editor's worker: `validate(table)` returns the
 * report `validateRankTable(table)` would (same findings, same order, same counts and messages), and when `table` is
 * the last one with a few entries changed, added or removed (what applyEdit makes of a grid edit: every other entry
 * is shared; or a stretch put in or taken out in the JSON view) it re-checks only what those entries can change.
 * "2.0" tables are validated that way per rank (a5-checks.ts, a5-state.ts), "1.0"/"1.2" tables per server
 * (v1-checks.ts, v1-index.ts, v1-state.ts), both over entry-diff.ts and rank-order.ts; the legacy and look-alike
 * layouts, a change of version, and more entries changed than a full run costs, in full.
 */
import { A5_VERSION } from "../a5-model";
import { otherFormatOf } from "../checks/other-formats";
import { isLegacyLayout } from "../legacy";
import type { JsonObject, JsonValue, ValidationReport } from "../model";
import { ViewReader } from "../table-view";
import { validateRankTable, type ValidateOptions } from "../validate";
import { A5State } from "./a5-state";
import { scratchFindings } from "./tally";
import { V1State } from "./v1-state";

/** How the last `validate` worked: "unchanged" (same table), "incremental", or "full". */
export type ValidationRun = "unchanged" | "incremental" | "full";

/** The layouts checkTable checks by their own rules (the legacy template, look-alike formats), never incrementally. */
function isV1Root(root: JsonObject): boolean {
  return !isLegacyLayout(root) && otherFormatOf(root) === undefined;
}

/** The same test checkTable makes before it checks a table as "2.0". */
function isA5Root(root: JsonObject): boolean {
  if (isLegacyLayout(root) || otherFormatOf(root) !== undefined) return false;
  return new ViewReader(scratchFindings()).scalar(root.version, "version", { path: "" }) === A5_VERSION;
}

/**
 * Past this share of a state built in steps, an edit waits for the rest of the build (then is checked incrementally):
 * the build costs about two full runs (bench editor-incremental), so before it a full run is cheaper.
 */
const FINISH_FROM = 0.5;

export interface IncrementalOptions {
  /**
   * The editor's worker: a "1.0"/"1.2" table seen anew is answered with a full run's report (as fast as before the
   * indexes existed), and its state is built afterwards in steps (`buildSome`), between the messages the worker
   * answers. Without it the state is built before the first report, which then costs about twice a full run.
   */
  deferBuild?: boolean;
}

export class IncrementalValidator {
  private table: JsonValue | undefined = undefined;
  private state: A5State | V1State | undefined;
  /** A "1.x" state being built for the table last validated in full (deferBuild), and the share of it done. */
  private pending: { steps: Generator<number, V1State | undefined>; done: number } | undefined;
  /** The last full report of a table checked neither way, with the options it was made with. */
  private full: { report: ValidationReport; options: ValidateOptions } | undefined;
  lastRun: ValidationRun = "full";

  constructor(private readonly options: IncrementalOptions = {}) {}

  validate(table: JsonValue, options: ValidateOptions = {}): ValidationReport {
    this.lastRun = this.bringTo(table);
    if (this.state) return this.state.report(options.lang ?? "en", options.limits);
    if (this.full === undefined || this.full.options.lang !== options.lang || this.full.options.limits !== options.limits || this.lastRun !== "unchanged") {
      this.full = { report: validateRankTable(table, options), options };
    }
    return this.full.report;
  }

  /** Whether a state is being built in steps (deferBuild): the worker then calls `buildSome` until it is done. */
  get building(): boolean {
    return this.pending !== undefined;
  }

  /** Builds the pending state for about `budgetMs` (one step at least); true while some of it remains. */
  buildSome(budgetMs: number): boolean {
    const start = performance.now();
    while (this.pending) {
      const step = this.pending.steps.next();
      if (step.done) {
        this.pending = undefined;
        this.state = step.value;
        // The state answers from now on (a table it refused, e.g. an unsupported version, keeps its full report).
        if (this.state) this.full = undefined;
        return false;
      }
      this.pending.done = step.value;
      if (performance.now() - start >= budgetMs) return true;
    }
    return false;
  }

  private bringTo(table: JsonValue): ValidationRun {
    const previous = this.table;
    this.table = table;
    if (previous === table && (this.state || this.full)) return "unchanged";
    if (this.pending && this.pending.done >= FINISH_FROM) this.buildSome(Number.POSITIVE_INFINITY);
    if (this.state?.update(table)) return "incremental";
    // Dropped before the new one is built: the old indexes need not stay in memory beside the new ones.
    this.state = undefined;
    this.pending = undefined;
    this.full = undefined;
    this.state = A5State.build(table, isA5Root);
    if (this.state === undefined && this.options.deferBuild) this.pending = { steps: V1State.building(table, isV1Root), done: 0 };
    else this.state ??= V1State.build(table, isV1Root);
    return "full";
  }
}
