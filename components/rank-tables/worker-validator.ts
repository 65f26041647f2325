/**
 * The worker's one validator, shared by the table it was sent (validation.worker.ts) and the table it keeps
 * (hosted-table.ts): it remembers the last table it validated, so after an edit of a "2.0" table only the changed
 * ranks are checked again (lib/rank-table/incremental; a one-field edit of 524,288 ranks takes milliseconds).
 */
import type { JsonValue, ValidateOptions, ValidationReport } from "@/lib/rank-table";
import { IncrementalValidator } from "@/lib/rank-table/incremental";

const validator = new IncrementalValidator();

export function validateInWorker(table: JsonValue, options: ValidateOptions): ValidationReport {
  return validator.validate(table, options);
}
