/**
 * Importing a rank table's text into the editor: parse it (comments allowed), keep the findings about the text
 * itself (comments, RT001) that the parsed table no longer shows, and validate the table. Runs in the validation
 * worker, or on the main thread where workers cannot run.
 */
import { parseRankTable, validateRankTable, type Issue, type JsonValue, type Lang, type ValidateOptions, type ValidationReport } from "@/lib/rank-table";

/** What a large import is busy with, in order (shown with a Cancel while it runs). */
export const IMPORT_STAGES = ["reading", "parsing", "validating", "rendering"] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

export interface ImportedTable {
  /** Undefined when the text is not JSON (the editor shows it as text with the error at its line and column). */
  table: JsonValue | undefined;
  /** Findings about the text itself (RT001 comments), kept beside the table's report until it is saved. */
  notes: Issue[];
  report: ValidationReport | undefined;
}

/**
 * Parses and validates. `onParsed` gets the table as soon as it is parsed, before the (longer) validation: the editor
 * can draw it while the findings are still being worked out. `validate` makes the table's report: the worker passes
 * its incremental validator, which builds its indexes in that run, so the first edit after an import is not a full
 * validation again.
 */
export function importRankTable(
  text: string,
  lang: Lang,
  onParsed?: (table: JsonValue) => void,
  validate: (table: JsonValue, options: ValidateOptions) => ValidationReport = validateRankTable,
): ImportedTable {
  const document = parseRankTable(text);
  if (document.value === undefined) return { table: undefined, notes: [], report: undefined };
  onParsed?.(document.value);
  const notes = document.commentCount > 0 ? validateRankTable(document, { lang }).issues.filter((issue) => issue.code === "RT001") : [];
  return { table: document.value, notes, report: validate(document.value, { lang }) };
}
