import { invalid } from "../errors";
import { parseRankTable, validateRankTable, writeRankTable } from "../rank-table";
import type { JsonValue } from "../rank-table/model";
import { rankTableParts } from "../rank-table/write-parts";
import { unstorableJson } from "../text-safety";
import { summarizeReport, type ReportSummary } from "./summary";

/** What a saved revision stores: the table in canonical form and the summary of its report. */
export interface CanonicalTable {
  text: string;
  summary: ReportSummary;
}

/** Rank tables nest six levels (super_pod_list → server_list → entry); the length is bounded by the body limit. */
const rankTableJsonLimits = { maxDepth: 64, maxLength: Number.POSITIVE_INFINITY };

/**
 * Parses, validates and writes a table in canonical form; refuses text that is not JSON (RT000), and text nested
 * deeper than a rank table is or that PostgreSQL cannot store (NUL, a lone surrogate). Seconds of CPU for the
 * largest tables: the API runs it in a worker for large bodies (server/rank-table-worker.ts).
 */
export function canonicalize(text: string): CanonicalTable {
  const document = parseRankTable(text);
  if (document.syntaxProblem || document.value === undefined) {
    const report = validateRankTable(document);
    const issue = report.issues[0];
    throw invalid(`the rank table is not JSON${issue ? ` (${issue.line}:${issue.column}: ${issue.message})` : ""}`, { code: "unparseable_rank_table", details: { issues: report.issues } });
  }
  assertStorable(document.value);
  const canonical = writeRankTable(document.value);
  return { text: canonical, summary: summarizeReport(validateRankTable(document.value)) };
}

function assertStorable(value: JsonValue): void {
  const unstorable = unstorableJson(value, rankTableJsonLimits);
  if (unstorable) throw invalid(`the rank table cannot be stored: ${unstorable}`, { code: "invalid_text" });
}

/**
 * canonicalize for a table parsed in pieces (lib/rank-table/stream-parse.ts): its summary, and its canonical text as
 * pieces to be taken one at a time (lib/rank-table/write-parts.ts), never one string (issue 21: a 524,288-rank
 * "2.0" table's text is longer than a string can be).
 */
export function canonicalParts(value: JsonValue): { summary: ReportSummary; parts: Iterable<string> } {
  assertStorable(value);
  return { summary: summarizeReport(validateRankTable(value)), parts: rankTableParts(value) };
}
