/**
 * The worker's one validator, shared by the table it was sent (validation.worker.ts) and the table it keeps
 * (hosted-table.ts): it remembers the last table it validated, so after an edit of a "2.0" table (a field, or ranks
 * added or removed: removeRank, an AI Server cut or pasted in the JSON view) only the changed ranks are checked again,
 * and after an edit of a "1.0"/"1.2" table (a field, a device, a server or a super pod added or removed) only the
 * servers it touches (lib/rank-table/incremental; bench `editor-incremental`: tens of milliseconds at 524,288 ranks
 * or devices). A "1.0"/"1.2" table seen anew is answered with a full run's report first; its indexes are built after
 * it, in slices between the worker's messages (an edit meanwhile waits for the rest of the build or runs in full).
 */
import type { JsonValue, ValidateOptions, ValidationReport } from "@/lib/rank-table";
import { IncrementalValidator } from "@/lib/rank-table/incremental";

const validator = new IncrementalValidator({ deferBuild: true });

/** A slice of the build: short enough that an edit sent meanwhile is answered well inside 300 ms. */
const BUILD_SLICE_MS = 40;
let buildScheduled = false;

function buildLater(): void {
  if (buildScheduled || !validator.building) return;
  buildScheduled = true;
  const slice = () => {
    if (validator.buildSome(BUILD_SLICE_MS)) setTimeout(slice, 0);
    else buildScheduled = false;
  };
  // After the task that sends the report: the report goes out first.
  setTimeout(slice, 0);
}

export function validateInWorker(table: JsonValue, options: ValidateOptions): ValidationReport {
  const report = validator.validate(table, options);
  buildLater();
  return report;
}
