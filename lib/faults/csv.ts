import Papa from "papaparse";
import { restoreCell } from "../csv-safety";
import { FindingCap, type OmittedFindings } from "../report-limits";
import { faultProblem, type FaultProblem } from "./errors";

/**
 * CSV import of historical fault events. The columns are the export's (components/faults/csv-export.ts
 * `eventsCsv`), so an exported file imports back: id, began_at, ended_at, super_pod, server, die, kind, code,
 * level, phase, job, rank, message; plus optional cluster, npu, peer_server, peer_die. Parsing is papaparse's
 * (RFC 4180: quoted fields, embedded commas, quotes and line breaks). Each row becomes one POST /api/v1/fault-events
 * item with source "csv-import"; the server validates it and answers per row.
 */
export interface CsvRow {
  /** 1-based line of the row in the file (the header is line 1). */
  line: number;
  item: Record<string, unknown>;
  /** Problems found before sending (unreadable numbers); the server checks the rest. */
  errors: FaultProblem[];
}

export interface CsvParse {
  rows: CsvRow[];
  columns: string[];
  /** Column names the import does not know (kept out of the items, reported). */
  unknownColumns: string[];
  errors: FaultProblem[];
  /** File-level problems past the report cap, counted per reason. */
  omittedErrors?: OmittedFindings;
}

const known = ["id", "began_at", "ended_at", "duration_s", "super_pod", "server", "die", "npu", "target", "kind", "code", "level", "reported_level", "rule", "phase", "source", "job", "rank", "message", "cluster", "peer_server", "peer_die"];

function integer(value: string | undefined, column: string, errors: FaultProblem[]): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) {
    errors.push(faultProblem("csv_not_integer", { column, value }, { path: column }));
    return undefined;
  }
  return n;
}

/**
 * Line numbers of text offsets, asked for in increasing order (papaparse gives rows and errors in text order).
 * A line ends at CRLF, LF or a lone CR (papaparse accepts files with any of them).
 */
function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let scanned = 0;
  return (offset) => {
    for (; scanned < offset; scanned++) {
      const code = text.charCodeAt(scanned);
      if (code === 10 || (code === 13 && text.charCodeAt(scanned + 1) !== 10)) line++;
    }
    return line;
  };
}

/** A cell's text: trimmed, a neutralised formula (lib/csv-safety.ts) restored, empty as absent. */
function cellValue(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return restoreCell(value.trim()).trim() || undefined;
}

/**
 * Parses the file row by row so each row and each syntax error gets the physical line it starts on (a quoted field
 * may span lines; an unterminated quote is reported where it opens). A row with more fields than the header is
 * refused with the count: the extra values would otherwise be dropped, and usually mean an unquoted comma shifted
 * every column after it. File-level problems are capped (lib/report-limits.ts).
 */
export function parseFaultCsv(text: string, cluster: string): CsvParse {
  const source = text.replace(/^\ufeff/, "");
  const lineAt = lineCounter(source);
  const cap = new FindingCap();
  const errors: FaultProblem[] = [];
  let columns: string[] | undefined;
  const rows: CsvRow[] = [];
  let cursor = 0;
  Papa.parse<string[]>(source, {
    skipEmptyLines: "greedy",
    step: (result) => {
      // The row starts at the first character after the previous row that is not a blank (skipped) line.
      const start = firstContent(source, cursor);
      const line = lineAt(start);
      cursor = result.meta.cursor;
      for (const error of result.errors) {
        if (error.type === "FieldMismatch") continue;
        const at = typeof error.index === "number" ? lineAt(Math.max(start, error.index)) : line;
        cap.push(errors, faultProblem("csv_syntax", { line: at, detail: error.message }), "csv_syntax");
      }
      if (columns === undefined) {
        columns = result.data.map((h) => h.trim().toLowerCase());
        return;
      }
      rows.push(readRow(result.data, columns, line, cluster));
    },
  });
  columns ??= [];
  if (!columns.includes("began_at") || !columns.includes("kind")) errors.push(faultProblem("csv_header"));
  const omitted = cap.omitted();
  return { rows, columns, unknownColumns: columns.filter((c) => !known.includes(c)), errors, ...(omitted ? { omittedErrors: omitted } : {}) };
}

function firstContent(text: string, from: number): number {
  const match = /\S/g;
  match.lastIndex = from;
  return match.exec(text)?.index ?? from;
}

function readRow(fields: string[], columns: string[], line: number, cluster: string): CsvRow {
  const rowErrors: FaultProblem[] = [];
  if (fields.length > columns.length) {
    rowErrors.push(faultProblem("csv_extra_fields", { line, count: fields.length, columns: columns.length }, { path: `line ${line}` }));
  }
  const record: Record<string, string> = {};
  columns.forEach((column, index) => {
    if (fields[index] !== undefined) record[column] = fields[index];
  });
  const get = (column: string) => cellValue(record[column]);
  const die = integer(get("die"), "die", rowErrors);
  const npu = integer(get("npu"), "npu", rowErrors);
  const peerDie = integer(get("peer_die"), "peer_die", rowErrors);
  const rank = integer(get("rank"), "rank", rowErrors);
  const target: Record<string, unknown> = {};
  if (get("super_pod") && !get("server")) target.superPod = get("super_pod");
  if (get("server")) target.server = get("server");
  if (die !== undefined) target.die = die;
  else if (npu !== undefined) target.npu = npu;
  if (get("peer_server") && peerDie !== undefined) target.peer = { server: get("peer_server"), die: peerDie };
  const item: Record<string, unknown> = {
    cluster: get("cluster") ?? cluster,
    kind: get("kind"),
    source: "csv-import",
    target,
    beganAt: get("began_at"),
  };
  const optional: [string, unknown][] = [
    ["id", get("id")],
    ["endedAt", get("ended_at")],
    ["code", get("code")],
    ["level", get("level")],
    ["phase", get("phase")],
    ["job", get("job")],
    ["rank", rank],
    ["message", get("message")],
  ];
  for (const [key, value] of optional) if (value !== undefined) item[key] = value;
  return { line, item, errors: rowErrors };
}
