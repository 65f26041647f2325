/// <reference lib="webworker" />
/**
 * Validation off the main thread: the worker keeps its own copy of the table, applies the same edits the editor
 * applies (so a one-field edit of a 16,384-rank table does not ship the table again) and answers the report. It also
 * parses and validates imported text (the table is sent as soon as it is parsed, so the editor draws it while the
 * worker validates), and writes the table back to text for drafts, so neither blocks typing.
 */
import { validateRankTable, writeRankTable, type Issue, type JsonValue, type Lang, type ValidationReport } from "@/lib/rank-table";
import { applyEdit, type Edit } from "@/lib/rank-table-workspace/edit";
import { importRankTable } from "@/lib/rank-table-workspace/import";

export type ValidationRequest =
  | { type: "edit"; seq: number; edit: Edit; lang: Lang }
  /** Parses text and makes it the worker's table (when it parses): answers `parsed`, then its `report`. */
  | { type: "import"; seq: number; text: string; lang: Lang }
  /** The worker's table as canonical text. */
  | { type: "write"; seq: number };

export type ValidationAnswer =
  /** `notes`: for an import, the findings about the text itself (comments). */
  | { type: "report"; seq: number; report: ValidationReport; notes?: Issue[] }
  /** The imported table, sent before it is validated; undefined when the text is not JSON (no report follows). */
  | { type: "parsed"; seq: number; table: JsonValue | undefined }
  | { type: "text"; seq: number; text: string };

let table: JsonValue = null;

const answer = (message: ValidationAnswer) => self.postMessage(message);

self.onmessage = (event: MessageEvent<ValidationRequest>) => {
  const request = event.data;
  switch (request.type) {
    case "edit":
      table = applyEdit(table, request.edit);
      answer({ type: "report", seq: request.seq, report: validateRankTable(table, { lang: request.lang }) });
      return;
    case "import": {
      const { seq } = request;
      const imported = importRankTable(request.text, request.lang, (parsed) => {
        table = parsed;
        answer({ type: "parsed", seq, table: parsed });
      });
      if (imported.report) answer({ type: "report", seq, report: imported.report, notes: imported.notes });
      else answer({ type: "parsed", seq, table: undefined });
      return;
    }
    case "write":
      answer({ type: "text", seq: request.seq, text: writeRankTable(table) });
      return;
  }
};
