/**
 * The worker's one validator, shared by the table it was sent (validation.worker.ts) and the table it keeps
 * (hosted-table.ts): it remembers the last table it validated, so after an edit of a "2.0" table (a field, or ranks
 * added or removed: removeRank, an AI Server cut or pasted in the JSON view) only the changed ranks are checked again,
 * and after an edit of a "1.0"/"1.2" table (a field, a device, a server or a super pod added or removed) only the
 * servers it touches (lib/rank-table/incremental; bench `editor-incremental`: tens of milliseconds at 524,288 ranks
 * or devices).
 */
import type { JsonValue, ValidateOptions, ValidationReport } from "@/lib/rank-table";
import { IncrementalValidator } from "@/lib/rank-table/incremental";

const validator = new IncrementalValidator();

export function validateInWorker(table: JsonValue, options: ValidateOptions): ValidationReport {
  return validator.validate(table, options);
}
