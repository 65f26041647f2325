/// <reference lib="webworker" />
/**
 * Validation off the main thread: the worker keeps its own copy of the table, applies the same edits the editor
 * applies (so a one-field edit of a 16,384-rank table does not ship the table again) and answers the report. It also
 * parses and validates imported text (the editor then receives the table and its report in one message), and writes
 * the table back to text for drafts, so neither blocks typing.
 */
import { validateRankTable, writeRankTable, type JsonValue, type Lang, type ValidationReport } from "@/lib/rank-table";
import { applyEdit, type Edit } from "@/lib/rank-table-workspace/edit";
import { importRankTable, type ImportedTable, type ImportStage } from "@/lib/rank-table-workspace/import";

export type ValidationRequest =
  | { type: "edit"; seq: number; edit: Edit; lang: Lang }
  /** Parses text and makes it the worker's table (when it parses). */
  | { type: "import"; seq: number; text: string; lang: Lang }
  /** The worker's table as canonical text. */
  | { type: "write"; seq: number };

export type ValidationAnswer =
  | { type: "report"; seq: number; report: ValidationReport }
  | { type: "stage"; seq: number; stage: ImportStage }
  | ({ type: "imported"; seq: number } & ImportedTable)
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
      const imported = importRankTable(request.text, request.lang, () => answer({ type: "stage", seq: request.seq, stage: "validating" }));
      if (imported.table !== undefined) table = imported.table;
      answer({ type: "imported", seq: request.seq, ...imported });
      return;
    }
    case "write":
      answer({ type: "text", seq: request.seq, text: writeRankTable(table) });
      return;
  }
};
