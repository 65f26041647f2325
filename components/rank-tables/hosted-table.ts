/**
 * The validation worker's side of a table it keeps (lib/rank-table-workspace/table-host.ts): opening a file in
 * chunks (a 524,288-rank table is longer than a string can be), answering row ranges, applying edits, streaming the
 * findings in pages and writing the table as Blob parts. The message types are shared with the main thread
 * (use-validation.ts, use-hosted-table.ts).
 */
import { countIssues, formatMessage, type Issue, type JsonValue, type Lang, type Severity, type ValidationReport } from "@/lib/rank-table";
import { StreamingTableParser, StreamSyntaxError } from "@/lib/rank-table/stream-parse";
import type { Edit } from "@/lib/rank-table-workspace/edit";
import { HOSTED_FROM_ROWS, TableHost, type TableSummary } from "@/lib/rank-table-workspace/table-host";
import type { DeviceRow } from "@/lib/rank-table-workspace/structure";
import type { SyntaxReason } from "@/lib/rank-table/json-scanner";
import { sourceText, type RemoteText, type TextPiece } from "./source-text";
import { rankTableBlob } from "./table-blob";
import { receiveText } from "./text-port";
import { validateInWorker } from "./worker-validator";

/** The text handed over by the text reader worker (text-reader.worker.ts) through this port, as it is read. */
export interface ReaderPort {
  port: MessagePort;
}

/** A report without its findings, which follow in pages; `counts` counts every finding, listed or not. */
export type ReportHead = Omit<ValidationReport, "issues"> & { counts: Record<Severity, number>; listed: number };

export type HostedRequest =
  /**
   * Reads a file, or a saved revision's text from the server, in chunks and parses it: answers `parsed` (a small
   * table, handed over whole), `hosted`, `notJson` or `failed`. From a ReaderPort, the text reader worker reads it.
   */
  | { type: "open"; seq: number; source: Blob | RemoteText | ReaderPort; lang: Lang }
  /** The text reader of that open stopped (it failed to load): the open fails with this message. */
  | { type: "readerLost"; seq: number; message: string }
  | { type: "rows"; seq: number; node: string | undefined; from: number; to: number }
  | { type: "locate"; seq: number; node: string | undefined; path: string }
  /** An edit, or an undo/redo step, of the hosted table: answers `edited`, then its findings. */
  | { type: "hostedEdit"; seq: number; edit?: Edit; step?: "undo" | "redo"; lang: Lang }
  /** The canonical text as a Blob; `jsonString`: escaped as the inside of a JSON string (for a save body). */
  | { type: "writeBlob"; seq: number; jsonString?: boolean };

export type HostedAnswer =
  | { type: "progress"; seq: number; percent: number }
  | { type: "hosted"; seq: number; summary: TableSummary; notes: Issue[] }
  | { type: "notJson"; seq: number; reason: SyntaxReason; offset: number }
  /** The file could not be read or parsed for another reason (out of memory, a read error). */
  | { type: "failed"; seq: number; message: string }
  /** No table is kept (a request raced a new import): nothing to answer with. */
  | { type: "gone"; seq: number }
  | { type: "rows"; seq: number; revision: number; total: number; rows: DeviceRow[] }
  | { type: "located"; seq: number; index: number; rowKey?: string; field?: string }
  /** `summary` only when the tree or the row count changed (it lists every server). */
  | { type: "edited"; seq: number; changed: boolean; revision: number; canUndo: boolean; canRedo: boolean; summary?: TableSummary }
  | { type: "blob"; seq: number; blob: Blob }
  /** One page of a report's findings: `head` on the first, `done` on the last. */
  | { type: "findings"; seq: number; head?: ReportHead; issues: Issue[]; done: boolean };

/** Findings per message: the first page shows while the rest are still on their way. */
export const FINDINGS_PAGE = 100;

let host: TableHost | undefined;

export const hostedTable = () => host;
export const dropHostedTable = () => {
  host = undefined;
};

/** Sends a report's findings in pages, one per task, so the main thread draws the first ones first. */
function streamReport(seq: number, report: ValidationReport, answer: (message: HostedAnswer) => void, extra: Issue[] = []): void {
  const { issues, ...rest } = report;
  const all = [...extra, ...issues];
  const counts = countIssues(report);
  for (const note of extra) counts[note.severity]++;
  const head: ReportHead = { ...rest, counts, listed: all.length };
  const send = (from: number) => {
    if (host === undefined) return;
    const page = all.slice(from, from + FINDINGS_PAGE);
    const done = from + FINDINGS_PAGE >= all.length;
    answer({ type: "findings", seq, ...(from === 0 ? { head } : {}), issues: page, done });
    if (!done) setTimeout(() => send(from + FINDINGS_PAGE), 0);
  };
  send(0);
}

/** Validation of the hosted table, once per burst of edits (as the worker's edit path does for a table it was sent). */
let unvalidated: { seq: number; lang: Lang } | undefined;
function validateHostedLater(seq: number, lang: Lang, answer: (message: HostedAnswer) => void): void {
  const scheduled = unvalidated !== undefined;
  unvalidated = { seq, lang };
  if (scheduled) return;
  setTimeout(() => {
    const current = unvalidated;
    unvalidated = undefined;
    if (current === undefined || host === undefined) return;
    streamReport(current.seq, validateInWorker(host.table, { lang: current.lang }), answer);
  }, 0);
}

/** The least time between two progress messages of an open. */
const PROGRESS_EVERY_MS = 250;

/** RT001 for a file with comments (they are dropped on export), as the validator words it for a text. */
const commentNote = (count: number, lang: Lang): Issue => ({ code: "RT001", severity: "info", path: "", message: formatMessage("RT001", { count }, lang) });

/** The open in progress: a newer open, or the loss of its reader, aborts it. */
let opening: { seq: number; abort: AbortController } | undefined;

async function parseSource(pieces: AsyncIterable<TextPiece>, signal: AbortSignal, onProgress: (percent: number) => void): Promise<{ value: JsonValue; commentCount: number }> {
  const parser = new StreamingTableParser();
  let reported = -1;
  let reportedAt = 0;
  for await (const { text, read, size } of pieces) {
    signal.throwIfAborted();
    parser.push(text);
    const percent = Math.min(100, Math.floor((read / Math.max(1, size)) * 100));
    // Each message re-renders the page's workspace, whose main thread shares the cores with this worker: a few a
    // second, not one per percent (the page ran 1.2 s of React work while 131,072 ranks were opened; trace of the
    // editor-browser bench).
    if (percent !== reported && performance.now() - reportedAt >= PROGRESS_EVERY_MS) {
      onProgress((reported = percent));
      reportedAt = performance.now();
    }
  }
  return parser.finish();
}

/**
 * Opens a file or a saved revision's text. A table with fewer than HOSTED_FROM_ROWS rows is handed back whole (`onSmall`: the editor edits it
 * on the main thread as before); a larger one stays here.
 */
export async function openFile(request: Extract<HostedRequest, { type: "open" }>, answer: (message: HostedAnswer) => void, onSmall: (table: JsonValue, notes: Issue[]) => void): Promise<void> {
  const { seq, lang } = request;
  host = undefined;
  unvalidated = undefined;
  firstRowsThen = undefined;
  opening?.abort.abort(new Error("a newer open took over"));
  const current = (opening = { seq, abort: new AbortController() });
  const { source } = request;
  let parsed: { value: JsonValue; commentCount: number };
  try {
    const pieces = "port" in source ? receiveText(source.port, current.abort.signal) : sourceText(source);
    parsed = await parseSource(pieces, current.abort.signal, (percent) => answer({ type: "progress", seq, percent }));
  } catch (error) {
    if (error instanceof StreamSyntaxError) answer({ type: "notJson", seq, reason: error.reason, offset: error.offset });
    else answer({ type: "failed", seq, message: error instanceof Error ? error.message : String(error) });
    return;
  } finally {
    if (opening === current) opening = undefined;
  }
  const notes = parsed.commentCount > 0 ? [commentNote(parsed.commentCount, lang)] : [];
  const candidate = new TableHost(parsed.value);
  if (candidate.rowCount < HOSTED_FROM_ROWS) {
    onSmall(parsed.value, notes);
    return;
  }
  host = candidate;
  answer({ type: "hosted", seq, summary: host.summary(), notes });
  // Validation takes seconds at 524,288 ranks and the worker does one thing at a time: it starts once the first rows
  // have been answered (the editor then has its first screen), or after FIRST_ROWS_WAIT_MS if none are asked for.
  const validate = () => {
    if (firstRowsThen !== validate) return;
    firstRowsThen = undefined;
    if (host === candidate) streamReport(seq, validateInWorker(candidate.table, { lang }), answer, notes);
  };
  firstRowsThen = validate;
  setTimeout(validate, FIRST_ROWS_WAIT_MS);
}

/**
 * How long the validation waits for the page to ask for its first rows. A second was too short on a loaded machine:
 * the page mounted the hosted editor later than that (524,288 ranks at load 12), the validation started first, and
 * the first rows waited the whole validation (shown 0.1 s before the report, 36.5 s after the navigation).
 */
const FIRST_ROWS_WAIT_MS = 5000;

/** The opened table's validation, waiting for the first rows to be answered. */
let firstRowsThen: (() => void) | undefined;

/** Answers a request about the hosted table. */
export function answerHosted(request: HostedRequest, answer: (message: HostedAnswer) => void): void {
  if (request.type === "open") return;
  if (request.type === "readerLost") {
    if (opening?.seq === request.seq) opening.abort.abort(new Error(request.message));
    return;
  }
  if (host === undefined) {
    answer({ type: "gone", seq: request.seq });
    return;
  }
  switch (request.type) {
    case "rows": {
      const { total, rows } = host.rows(request.node, request.from, request.to);
      answer({ type: "rows", seq: request.seq, revision: host.summary().revision, total, rows });
      if (firstRowsThen) setTimeout(firstRowsThen, 0);
      return;
    }
    case "locate":
      answer({ type: "located", seq: request.seq, ...host.locate(request.node, request.path) });
      return;
    case "hostedEdit": {
      const before = host.summary();
      const changed = request.edit ? host.edit(request.edit) : request.step === "undo" ? host.undo() : host.redo();
      const { revision, canUndo, canRedo } = host.summary();
      answer({ type: "edited", seq: request.seq, changed, revision, canUndo, canRedo, ...(changed && host.treeChangedSince(before) ? { summary: host.summary() } : {}) });
      if (changed) validateHostedLater(request.seq, request.lang, answer);
      return;
    }
    case "writeBlob":
      answer({ type: "blob", seq: request.seq, blob: rankTableBlob(host.table, request.jsonString) });
      return;
  }
}
