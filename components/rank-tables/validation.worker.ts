/// <reference lib="webworker" />
/**
 * Validation off the main thread: the worker keeps its own copy of the table, applies the same edits the editor
 * applies (so a one-field edit of a 16,384-rank table does not ship the table again) and answers the report.
 */
import { validateRankTable, type JsonValue, type Lang } from "@/lib/rank-table";
import { applyEdit, type Edit } from "@/lib/rank-table-workspace/edit";

export interface ValidationRequest {
  seq: number;
  edit: Edit;
  lang: Lang;
}

let table: JsonValue = null;

self.onmessage = (event: MessageEvent<ValidationRequest>) => {
  const { seq, edit, lang } = event.data;
  table = applyEdit(table, edit);
  const started = performance.now();
  const report = validateRankTable(table, { lang });
  self.postMessage({ seq, report, ms: performance.now() - started });
};
