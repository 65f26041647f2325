/**
 * The streaming diagnoser: files are fed one after another, line by line, and only what the lines say about ranks and
 * errors is kept (a few evidence lines per finding), so hundreds of MB of logs are never held.
 */
import { attributeFiles, learnIdentity, type FileState } from "./attribution";
import { isChatter, isChatterBytes } from "./chatter";
import { decide } from "./decide";
import { readJobTable, type JobTable } from "./job-table";
import { identityFromPath } from "./identity";
import { readLine } from "./patterns";
import type { DiagnoseOptions, DiagnosisReport, Evidence, LogFile } from "./model";

/** Evidence lines longer than this are cut; a report stays small however long the lines are. */
const EVIDENCE_CHARS = 500;
/** A line is read up to this many bytes (the rest is skipped to its newline): a file without newlines stays cheap. */
const MAX_LINE = 64 * 1024;
/** Observations kept per file (counts go on); a file repeating one error a million times stays cheap. */
const OBSERVATIONS_PER_FILE = 400;

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

export class LogDiagnoser {
  private readonly table: JobTable | undefined;
  private readonly files: FileState[] = [];
  private current: FileState | undefined;
  private pending = "";
  /** The start of a line cut at a chunk's end (its pieces, joined once the line ends), at most MAX_LINE bytes. */
  private pendingBytes: Uint8Array[] | undefined;
  private pendingLength = 0;
  private readonly utf8 = new TextDecoder("utf-8");
  private lineNumber = 0;
  private lines = 0;
  private unknownLines = 0;
  private errorLines = 0;

  constructor(options: DiagnoseOptions = {}) {
    this.table = options.rankTable === undefined ? undefined : readJobTable(options.rankTable);
  }

  /** Starts a new file; the lines that follow belong to it. */
  addFile(path: string): void {
    this.flush();
    const fromPath = identityFromPath(path);
    this.current = { path, identity: fromPath, rankWeight: fromPath.rank === undefined ? -1 : 0, observations: [], dropped: 0 };
    this.files.push(this.current);
    this.lineNumber = 0;
  }

  /** Feeds a piece of the current file; lines may be split across chunks. */
  addChunk(text: string): void {
    let start = 0;
    const source = this.pending === "" ? text : this.pending + text;
    this.pending = "";
    const file = this.current;
    for (;;) {
      const end = source.indexOf("\n", start);
      if (end === -1) break;
      if (file !== undefined && file.rankWeight >= 5 && isChatter(source, start)) {
        // The bulk of a plog once we know whose it is: counted without being cut out or read.
        this.lineNumber++;
        this.lines++;
      } else this.addLine(source.charCodeAt(end - 1) === 13 ? source.slice(start, end - 1) : source.slice(start, end));
      start = end + 1;
    }
    this.pending = source.slice(start, start + MAX_LINE);
  }

  /**
   * Feeds raw UTF-8 bytes of the current file (lines may be split across calls). Faster than decoding first: a plog's
   * INFO chatter, once the file's rank is known, is counted without ever being decoded; other lines are decoded one
   * by one (a newline byte never occurs inside a multi-byte character, so each line decodes on its own).
   */
  addBytes(bytes: Uint8Array): void {
    let start = 0;
    if (this.pendingBytes !== undefined) {
      // Only the line cut at the previous chunk's end is copied, never the whole chunk.
      const end = bytes.indexOf(10);
      if (end === -1) {
        this.keepPending(bytes);
        return;
      }
      const line = concat([...this.pendingBytes, bytes.subarray(0, Math.min(end, Math.max(0, MAX_LINE - this.pendingLength)))]);
      this.pendingBytes = undefined;
      this.readBytesLine(line, 0, line.length);
      start = end + 1;
    }
    for (;;) {
      const end = bytes.indexOf(10, start);
      if (end === -1) break;
      this.readBytesLine(bytes, start, end);
      start = end + 1;
    }
    if (start < bytes.length) {
      this.pendingBytes = [];
      this.pendingLength = 0;
      this.keepPending(bytes.subarray(start));
    }
  }

  /** Keeps a piece of the line being cut, up to MAX_LINE bytes of it. */
  private keepPending(bytes: Uint8Array): void {
    const room = MAX_LINE - this.pendingLength;
    if (room <= 0) return;
    const piece = bytes.subarray(0, room).slice();
    this.pendingBytes!.push(piece);
    this.pendingLength += piece.length;
  }

  private readBytesLine(bytes: Uint8Array, start: number, end: number): void {
    const file = this.current;
    if (file !== undefined && file.rankWeight >= 5 && isChatterBytes(bytes, start)) {
      this.lineNumber++;
      this.lines++;
    } else this.addLine(this.utf8.decode(bytes.subarray(start, end > start && bytes[end - 1] === 13 ? end - 1 : end)));
  }

  /** Feeds one whole line (without its newline) of the current file. */
  addLine(line: string): void {
    if (this.current === undefined) this.addFile("<pasted>");
    const file = this.current!;
    this.lineNumber++;
    this.lines++;
    if (line.trim() === "") return;
    const reading = readLine(line);
    if (!reading.known) this.unknownLines++;
    if (reading.error) this.errorLines++;
    if (reading.identity) learnIdentity(file, reading.identity);
    if (reading.finding === undefined) return;
    if (file.observations.length >= OBSERVATIONS_PER_FILE) {
      file.dropped++;
      return;
    }
    file.observations.push({
      finding: reading.finding,
      speakerRank: reading.speakerRank,
      evidence: { file: file.path, line: this.lineNumber, text: line.length > EVIDENCE_CHARS ? `${line.slice(0, EVIDENCE_CHARS)}…` : line },
    });
  }

  /** The report: each file's observations attributed to ranks (./attribution.ts), then decided (./decide.ts). */
  finish(): DiagnosisReport {
    this.flush();
    const { ranks, unattributed, rankSize, root } = attributeFiles(this.files, this.table);
    return decide({
      ranks,
      unattributed,
      table: this.table,
      rankSize,
      root,
      stats: { files: this.files.length, lines: this.lines, unknownLines: this.unknownLines, errorLines: this.errorLines },
    });
  }

  private flush(): void {
    if (this.pendingBytes !== undefined) {
      const last = concat(this.pendingBytes);
      this.pendingBytes = undefined;
      this.addLine(this.utf8.decode(last[last.length - 1] === 13 ? last.subarray(0, -1) : last));
    }
    if (this.pending !== "") {
      const last = this.pending;
      this.pending = "";
      this.addLine(last.endsWith("\r") ? last.slice(0, -1) : last);
    }
  }
}

/** Diagnoses whole texts held in memory (a pasted excerpt, small uploads). */
export function diagnoseTexts(files: LogFile[], options: DiagnoseOptions = {}): DiagnosisReport {
  const diagnoser = new LogDiagnoser(options);
  for (const file of files) {
    diagnoser.addFile(file.path);
    diagnoser.addChunk(file.text);
  }
  return diagnoser.finish();
}

export type { Evidence };
