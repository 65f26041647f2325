import Papa from "papaparse";
import { faultProblem, type FaultProblem } from "./errors";

/**
 * CSV import of historical fault events. The columns are the export's (components/faults/timeline-view.tsx
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

export function parseFaultCsv(text: string, cluster: string): CsvParse {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ""), { header: true, skipEmptyLines: "greedy", transformHeader: (h) => h.trim().toLowerCase() });
  const columns = parsed.meta.fields ?? [];
  const errors = parsed.errors.filter((e) => e.type !== "FieldMismatch").map((e) => faultProblem("csv_syntax", { line: (e.row ?? 0) + 2, detail: e.message }));
  if (!columns.includes("began_at") || !columns.includes("kind")) errors.push(faultProblem("csv_header"));
  const rows = parsed.data.map((record, index): CsvRow => {
    const rowErrors: FaultProblem[] = [];
    const get = (column: string) => {
      const value = record[column];
      return value === undefined || value.trim() === "" ? undefined : value.trim();
    };
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
    return { line: index + 2, item, errors: rowErrors };
  });
  return { rows, columns, unknownColumns: columns.filter((c) => !known.includes(c)), errors };
}
