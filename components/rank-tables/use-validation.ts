"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { validateRankTable, writeRankTable, type Issue, type JsonValue, type Lang, type ValidationReport } from "@/lib/rank-table";
import type { Edit } from "@/lib/rank-table-workspace/edit";
import { indexIssues, type IssueIndex } from "@/lib/rank-table-workspace/structure";
import { importRankTable, type ImportStage } from "@/lib/rank-table-workspace/import";
import type { HostedAnswer, HostedRequest } from "./hosted-table";
import type { RemoteText } from "./source-text";
import type { TableSummary } from "@/lib/rank-table-workspace/table-host";
import { useTextReader } from "./use-text-reader";
import type { ValidationAnswer, ValidationRequest } from "./validation.worker";

/** Tables with at least this many dies are validated in a Web Worker; smaller ones right away. */
export const WORKER_FROM_DEVICES = 2000;

/** The import was cancelled: its worker was stopped and nothing it produced is used. */
export class ImportCancelled extends Error {
  constructor() {
    super("import cancelled");
  }
}

export interface Validation {
  report: ValidationReport | undefined;
  /** The report's findings by field, die and server; lists that did not change since the last report keep their arrays. */
  index: IssueIndex;
  /** True while a newer report is being computed. */
  pending: boolean;
  /**
   * Parses text off the main thread, telling which stage it is in, and resolves with the table (undefined when the text
   * is not JSON) as soon as it is parsed; the worker validates it meanwhile, and `onNotes` gets the findings about the
   * text itself (comments). Rejects with ImportCancelled.
   */
  importText: (text: string, onStage: (stage: ImportStage) => void, onNotes: (notes: Issue[]) => void) => Promise<JsonValue | undefined>;
  /** Stops a running import (terminating its worker). */
  cancelImport: () => void;
  /** The editor now shows a table importText gave: its report is the one the import's worker is (or was) working out. */
  adopt: (table: JsonValue) => void;
  /** The table as canonical text: written by the worker when it holds this very table, so drafts never block typing. */
  write: (table: JsonValue) => Promise<string>;
  /**
   * Opens a file, or a saved revision's text from the server, in the worker, read in chunks (never one string: a
   * 524,288-rank table is longer than a string can be). A small table comes back whole; a large one stays in the
   * worker (`hosted`, then use `hosted`). Undefined when no worker can run. Rejects with ImportCancelled.
   */
  openFile: (source: Blob | RemoteText, onProgress: (percent: number) => void, onNotes: (notes: Issue[]) => void) => Promise<OpenedFile | undefined>;
  /** The channel to a table the worker keeps. */
  hosted: HostedChannel;
}

export type OpenedFile =
  | { kind: "table"; table: JsonValue }
  | { kind: "hosted"; summary: TableSummary; notes: Issue[] }
  | { kind: "notJson"; reason: string; offset: number };

type Unsequenced<T> = T extends unknown ? Omit<T, "seq"> : never;

export interface HostedChannel {
  request: (request: Unsequenced<Exclude<HostedRequest, { type: "open" }>>) => Promise<HostedAnswer>;
  /** Where the findings of the hosted table go, page by page. */
  onFindings: (listener: ((answer: Extract<HostedAnswer, { type: "findings" }>) => void) | undefined) => void;
}

interface Waiting {
  resolve: (answer: ValidationAnswer) => void;
  reject: (error: Error) => void;
}

/** Resolves once the browser had a chance to paint (what a progress display just showed), or after 100 ms in a hidden tab. */
export const afterPaint = () =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });

/**
 * Live validation of the table being edited. `lastEdit` is the edit that produced `table` from the previous table
 * (when known): the worker then gets only the edit instead of the whole table.
 */
export function useValidation(table: JsonValue | undefined, lastEdit: { edit: Edit; from: JsonValue } | undefined, lang: Lang, devices: number): Validation {
  const [state, setState] = useState<{ report: ValidationReport | undefined; index: IssueIndex; seq: number }>(() => ({ report: undefined, index: indexIssues([]), seq: 0 }));
  const accept = useCallback((report: ValidationReport, answered: number) => {
    setState((previous) => (answered > previous.seq ? { report, index: indexIssues(report.issues, previous.index), seq: answered } : previous));
  }, []);
  const [pendingSeq, setPendingSeq] = useState(0);
  const worker = useRef<Worker | undefined>(undefined);
  /** The table the worker holds (as the editor's object), when the worker is in step with the editor. */
  const workerTable = useRef<JsonValue | undefined>(undefined);
  const workerLang = useRef<Lang | undefined>(undefined);
  /** A table whose report came with its import: the next validation run for it is skipped. */
  const adopted = useRef<JsonValue | undefined>(undefined);
  const waiting = useRef(new Map<number, Waiting>());
  const noteListeners = useRef(new Map<number, (notes: Issue[]) => void>());
  const progressListeners = useRef(new Map<number, (percent: number) => void>());
  const findingsListener = useRef<((answer: Extract<HostedAnswer, { type: "findings" }>) => void) | undefined>(undefined);
  /** The last imported table, with the number its report has (or will have) and, without a worker, the report. */
  const imported = useRef<{ table: JsonValue; seq: number; report?: ValidationReport | undefined } | undefined>(undefined);
  const seq = useRef(0);
  /** Set when the worker cannot run (blocked by policy, failed to load): validation then runs here. */
  const [workerFailed, setWorkerFailed] = useState(false);
  const workerFailedRef = useRef(false);
  const canUseWorker = typeof Worker !== "undefined" && !workerFailed;
  const useWorker = devices >= WORKER_FROM_DEVICES && canUseWorker;

  const onReaderLost = useCallback((open: number) => {
    worker.current?.postMessage({ type: "readerLost", seq: open, message: "the text reader failed" } satisfies ValidationRequest);
  }, []);
  const { start: startReader, stop: stopReader, hasFailed: readerFailed } = useTextReader(onReaderLost);

  const stopWorker = useCallback((reason: Error) => {
    stopReader();
    worker.current?.terminate();
    worker.current = undefined;
    workerTable.current = undefined;
    for (const entry of waiting.current.values()) entry.reject(reason);
    waiting.current.clear();
    noteListeners.current.clear();
    progressListeners.current.clear();
  }, [stopReader]);

  const ensureWorker = useCallback((): Worker => {
    if (worker.current) return worker.current;
    const created = new Worker(new URL("./validation.worker.ts", import.meta.url), { type: "module" });
    created.onmessage = (event: MessageEvent<ValidationAnswer>) => {
      const answer = event.data;
      if (answer.type === "progress") {
        progressListeners.current.get(answer.seq)?.(answer.percent);
        return;
      }
      if (answer.type === "findings") {
        findingsListener.current?.(answer);
        return;
      }
      if (answer.type === "report") {
        if (answer.notes) noteListeners.current.get(answer.seq)?.(answer.notes);
        noteListeners.current.delete(answer.seq);
        accept(answer.report, answer.seq);
        return;
      }
      const entry = waiting.current.get(answer.seq);
      waiting.current.delete(answer.seq);
      entry?.resolve(answer);
    };
    created.onerror = () => {
      stopWorker(new Error("the validation worker failed"));
      workerFailedRef.current = true;
      setWorkerFailed(true);
    };
    worker.current = created;
    return created;
  }, [stopWorker, accept]);

  const ask = useCallback(
    (request: ValidationRequest, transfer: Transferable[] = []) =>
      new Promise<ValidationAnswer>((resolve, reject) => {
        waiting.current.set(request.seq, { resolve, reject });
        ensureWorker().postMessage(request, transfer);
      }),
    [ensureWorker],
  );

  useEffect(() => () => stopWorker(new ImportCancelled()), [stopWorker]);

  useEffect(() => {
    if (table === undefined) return;
    if (adopted.current === table) {
      adopted.current = undefined;
      return;
    }
    adopted.current = undefined;
    const current = ++seq.current;
    if (!useWorker) {
      accept(validateRankTable(table, { lang }), current);
      setPendingSeq(current);
      return;
    }
    const canPatch = worker.current !== undefined && lastEdit !== undefined && lastEdit.from === workerTable.current && lastEdit.edit.type !== "replace" && workerLang.current === lang;
    const edit: Edit = canPatch ? lastEdit.edit : { type: "replace", table };
    workerTable.current = table;
    workerLang.current = lang;
    ensureWorker().postMessage({ type: "edit", seq: current, edit, lang } satisfies ValidationRequest);
    setPendingSeq(current);
  }, [table, lastEdit, lang, useWorker, ensureWorker, accept]);

  const importText = useCallback(
    async (text: string, onStage: (stage: ImportStage) => void, onNotes: (notes: Issue[]) => void): Promise<JsonValue | undefined> => {
      const current = ++seq.current;
      onStage("parsing");
      if (typeof Worker !== "undefined" && !workerFailedRef.current) {
        workerTable.current = undefined;
        noteListeners.current.set(current, onNotes);
        try {
          const answer = await ask({ type: "import", seq: current, text, lang });
          if (answer.type !== "parsed") throw new Error(`unexpected answer ${answer.type}`);
          if (answer.table !== undefined) imported.current = { table: answer.table, seq: current };
          else noteListeners.current.delete(current);
          return answer.table;
        } catch (error) {
          if (error instanceof ImportCancelled || !workerFailedRef.current) throw error;
        }
      }
      // No worker: the same work here, letting the progress paint before it.
      await afterPaint();
      const result = importRankTable(text, lang, () => onStage("validating"));
      if (result.table !== undefined) imported.current = { table: result.table, seq: current, report: result.report };
      onNotes(result.notes);
      return result.table;
    },
    [ask, lang],
  );

  const cancelImport = useCallback(() => {
    stopWorker(new ImportCancelled());
    // Nothing the stopped worker was computing will answer.
    setState((previous) => ({ ...previous, seq: seq.current }));
  }, [stopWorker]);

  const adopt = useCallback(
    (value: JsonValue) => {
      const known = imported.current;
      if (known?.table !== value) return;
      imported.current = undefined;
      adopted.current = value;
      if (worker.current) {
        workerTable.current = value;
        workerLang.current = lang;
      }
      if (known.report) accept(known.report, known.seq);
      setPendingSeq(known.seq);
    },
    [lang, accept],
  );

  const write = useCallback(
    async (value: JsonValue): Promise<string> => {
      if (!worker.current || workerTable.current !== value) return writeRankTable(value);
      const answer = await ask({ type: "write", seq: ++seq.current });
      if (answer.type !== "text") throw new Error(`unexpected answer ${answer.type}`);
      return answer.text;
    },
    [ask],
  );

  const openFile = useCallback(
    async (source: Blob | RemoteText, onProgress: (percent: number) => void, onNotes: (notes: Issue[]) => void): Promise<OpenedFile | undefined> => {
      if (typeof Worker === "undefined" || workerFailedRef.current) return undefined;
      const current = ++seq.current;
      workerTable.current = undefined;
      noteListeners.current.set(current, onNotes);
      progressListeners.current.set(current, onProgress);
      let withReader = false;
      const open = (readerToo = true): Promise<ValidationAnswer> => {
        const reader = readerToo ? startReader(source, current) : undefined;
        withReader = reader !== undefined;
        return reader ? ask({ type: "open", seq: current, source: reader, lang }, [reader.port]) : ask({ type: "open", seq: current, source, lang });
      };
      try {
        let answer = await open();
        // The reader failed to load: the worker reads the text itself.
        if (answer.type === "failed" && withReader && readerFailed()) answer = await open();
        // The reader drops whitespace (lib/rank-table/compact-json.ts), which moves where the text breaks: the worker
        // reads it again as it is, to say where in the file.
        else if (answer.type === "notJson" && withReader) answer = await open(false);
        switch (answer.type) {
          case "parsed":
            if (answer.table === undefined) throw new Error("unexpected answer");
            imported.current = { table: answer.table, seq: current };
            return { kind: "table", table: answer.table };
          case "hosted":
            noteListeners.current.delete(current);
            return { kind: "hosted", summary: answer.summary, notes: answer.notes };
          case "notJson":
            noteListeners.current.delete(current);
            return { kind: "notJson", reason: answer.reason, offset: answer.offset };
          case "failed":
            throw new Error(answer.message);
          default:
            throw new Error(`unexpected answer ${answer.type}`);
        }
      } catch (error) {
        if (error instanceof ImportCancelled || !workerFailedRef.current) throw error;
        return undefined;
      } finally {
        progressListeners.current.delete(current);
        stopReader();
      }
    },
    [ask, lang, startReader, stopReader, readerFailed],
  );

  const hosted = useMemo<HostedChannel>(
    () => ({
      request: (request) => ask({ ...request, seq: ++seq.current } as ValidationRequest) as Promise<HostedAnswer>,
      onFindings: (listener) => {
        findingsListener.current = listener;
      },
    }),
    [ask],
  );

  return { report: state.report, index: state.index, pending: state.seq < pendingSeq, importText, cancelImport, adopt, write, openFile, hosted };
}
