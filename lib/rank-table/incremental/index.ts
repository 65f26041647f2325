/**
 * A validator that keeps what it learnt from the last table, for the editor's worker: `validate(table)` returns the
 * report `validateRankTable(table)` would (same findings, same order, same counts and messages), and when `table` is
 * the last one with a few rank_list entries changed, added or removed (what applyEdit makes of a grid edit: every
 * other entry is shared; or a stretch of ranks, an AI Server, put in or taken out in the JSON view) it re-checks only
 * what those entries can change, and after a header edit only the header. "2.0" tables are validated that way
 * (a5-checks.ts, a5-state.ts, entry-diff.ts, rank-order.ts); other layouts, and more than 4,096 entries changed, in full.
 *
 * How the "1.0"/"1.2" rules would split, for when those tables need it too (they are validated in full today):
 * - local to a device or server: reads (RT002–RT004), RT020, RT021, RT023, RT025, RT030, RT031, RT033, RT035,
 *   RT040, RT041, RT044, RT045, RT050, RT051, RT054;
 * - uniqueness, keyed: per table RT022 server_id, RT026 host_ip, RT036 device_ip, RT046 rank_id; per server RT032
 *   device_id, RT042 host_port; per super pod RT034 super_device_id; RT061 super_pod_id, RT062–RT064 membership;
 * - depending on another device through a key: RT043, RT052, RT053, RT055 (the first device holding the backup IP);
 * - per server or pod aggregates: RT049 (ranks of a server in one block), RT065 (servers of a pod together);
 * - table-wide, each reported once: RT013 (first super_device_id), RT037 (first mixed family), RT038/RT039 (by the
 *   number of servers or pods), RT047 (by the device count), RT048 (first drop in physical order), RT067 (counts),
 *   the header rules RT010–RT017; and the legacy and look-alike layouts (RT005, RT006, RT070–RT079), small tables.
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

export class IncrementalValidator {
  private table: JsonValue | undefined = undefined;
  private state: A5State | V1State | undefined;
  /** The last full report of a table checked neither way, with the options it was made with. */
  private full: { report: ValidationReport; options: ValidateOptions } | undefined;
  lastRun: ValidationRun = "full";

  validate(table: JsonValue, options: ValidateOptions = {}): ValidationReport {
    this.lastRun = this.bringTo(table);
    if (this.state) return this.state.report(options.lang ?? "en", options.limits);
    if (this.full === undefined || this.full.options.lang !== options.lang || this.full.options.limits !== options.limits || this.lastRun !== "unchanged") {
      this.full = { report: validateRankTable(table, options), options };
    }
    return this.full.report;
  }

  private bringTo(table: JsonValue): ValidationRun {
    const previous = this.table;
    this.table = table;
    if (previous === table && (this.state || this.full)) return "unchanged";
    if (this.state?.update(table)) return "incremental";
    // Dropped before the new one is built: the old indexes need not stay in memory beside the new ones.
    this.state = undefined;
    this.state = A5State.build(table, isA5Root) ?? V1State.build(table, isV1Root);
    this.full = undefined;
    return "full";
  }
}
