import { invalid } from "../errors";
import { parseRankTable, validateRankTable, writeRankTable } from "../rank-table";
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
  const unstorable = unstorableJson(document.value, rankTableJsonLimits);
  if (unstorable) throw invalid(`the rank table cannot be stored: ${unstorable}`, { code: "invalid_text" });
  const canonical = writeRankTable(document.value);
  return { text: canonical, summary: summarizeReport(validateRankTable(document.value)) };
}
