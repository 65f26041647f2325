/// <reference lib="webworker" />
/**
 * Validation off the main thread: the worker keeps its own copy of the table, applies the same edits the editor
 * applies (so a one-field edit of a 16,384-rank table does not ship the table again) and answers the report. It also
 * parses and validates imported text (the table is sent as soon as it is parsed, so the editor draws it while the
 * worker validates), and writes the table back to text for drafts, so neither blocks typing.
 */
import { writeRankTable, type Issue, type JsonValue, type Lang, type ValidationReport } from "@/lib/rank-table";
import { applyEdit, type Edit } from "@/lib/rank-table-workspace/edit";
import { importRankTable } from "@/lib/rank-table-workspace/import";
import { answerHosted, dropHostedTable, openFile, type HostedAnswer, type HostedRequest } from "./hosted-table";
import { validateInWorker } from "./worker-validator";

export type ValidationRequest =
  | { type: "edit"; seq: number; edit: Edit; lang: Lang }
  /** Parses text and makes it the worker's table (when it parses): answers `parsed`, then its `report`. */
  | { type: "import"; seq: number; text: string; lang: Lang }
  /** The worker's table as canonical text. */
  | { type: "write"; seq: number }
  /** A table the worker keeps (hosted-table.ts): opened from a file, edited, read by row ranges. */
  | HostedRequest;

export type ValidationAnswer =
  /** `notes`: for an import, the findings about the text itself (comments). */
  | { type: "report"; seq: number; report: ValidationReport; notes?: Issue[] }
  /** The imported table, sent before it is validated; undefined when the text is not JSON (no report follows). */
  | { type: "parsed"; seq: number; table: JsonValue | undefined }
  | { type: "text"; seq: number; text: string }
  | HostedAnswer;

let table: JsonValue = null;

const answer = (message: ValidationAnswer) => self.postMessage(message);

/**
 * Edits are applied as they come but validated once per burst: validating a 524,288-rank table takes seconds (bench:
 * `editor`), and a report per keystroke would queue seconds of work per keystroke. The validation runs after the
 * messages already queued (a macrotask), and its report carries the newest edit's number, which the editor takes as
 * the answer to every edit before it.
 *
 * The validator keeps what it learnt from the last table it validated: when the edits since then changed only some
 * ranks of a "2.0" table (applyEdit shares every other entry), it re-checks only what those can change (a one-field
 * edit of 524,288 ranks: milliseconds instead of seconds); any other table is validated in full, with the same report.
 */
let unvalidated: { seq: number; lang: Lang } | undefined;

function validateLater(seq: number, lang: Lang): void {
  const scheduled = unvalidated !== undefined;
  unvalidated = { seq, lang };
  if (scheduled) return;
  setTimeout(() => {
    // An import since then made the edits moot (its own report follows it).
    if (unvalidated === undefined) return;
    const { seq, lang } = unvalidated;
    unvalidated = undefined;
    answer({ type: "report", seq, report: validateInWorker(table, { lang }) });
  }, 0);
}

self.onmessage = (event: MessageEvent<ValidationRequest>) => {
  const request = event.data;
  switch (request.type) {
    case "edit":
      table = applyEdit(table, request.edit);
      validateLater(request.seq, request.lang);
      return;
    case "import": {
      const { seq } = request;
      unvalidated = undefined;
      dropHostedTable();
      const imported = importRankTable(
        request.text,
        request.lang,
        (parsed) => {
          table = parsed;
          answer({ type: "parsed", seq, table: parsed });
        },
        validateInWorker,
      );
      if (imported.report) answer({ type: "report", seq, report: imported.report, notes: imported.notes });
      else answer({ type: "parsed", seq, table: undefined });
      return;
    }
    case "write":
      answer({ type: "text", seq: request.seq, text: writeRankTable(table) });
      return;
    case "open":
      unvalidated = undefined;
      void openFile(request, answer, (parsed, notes) => {
        // Small enough for the main thread: handed over whole, as an import of its text is.
        table = parsed;
        answer({ type: "parsed", seq: request.seq, table: parsed });
        answer({ type: "report", seq: request.seq, report: validateInWorker(parsed, { lang: request.lang }), notes });
      });
      return;
    default:
      answerHosted(request, answer);
  }
};
