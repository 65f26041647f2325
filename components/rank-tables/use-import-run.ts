"use client";

import { App } from "antd";
import { useTranslations } from "next-intl";
import { useCallback, useRef, useState } from "react";
import type { Issue, JsonValue } from "@/lib/rank-table";
import type { RemoteText } from "./source-text";
import { percentStore, readFileText, type ImportProgress } from "./import-panel";
import { afterPaint, ImportCancelled, type OpenedFile, type Validation } from "./use-validation";

/** A running import: cancelling stops its file reading and its worker, and drops whatever they still deliver. */
interface ImportRun {
  cancelled: boolean;
  abort?: () => void;
}

/** A file that is not JSON is shown as text (with the error at its line) up to this size; past it, only the error. */
const TEXT_VIEW_MAX_BYTES = 32 * 1024 * 1024;

const sourceName = (source: File | RemoteText, fileName: string | undefined) => fileName ?? (source instanceof File ? source.name : "");

interface Options {
  validation: Pick<Validation, "importText" | "cancelImport" | "openFile">;
  /** Findings about the imported text itself (comments), which the parsed table no longer shows. */
  onNotes: (notes: Issue[]) => void;
  /**
   * The import's table (undefined when the text is not JSON), once the progress display has been painted; `saved`:
   * it is a saved revision's text read from the server, not new work.
   */
  onImported: (table: JsonValue | undefined, text: string, fileName: string | undefined, saved: boolean) => void;
  /** A table too large for the main thread, kept by the worker (opened from a file or a saved revision's text). */
  onHosted: (opened: Extract<OpenedFile, { kind: "hosted" }>, fileName: string | undefined) => void;
}

/**
 * Reads (a file, or a saved revision's text from the server), parses and validates (in the worker) and shows a table,
 * with its stages on screen (`progress`) and a Cancel. A new import cancels the running one.
 */
export function useImportRun({ validation: { importText, cancelImport: stopImportWork, openFile }, onNotes, onImported, onHosted }: Options) {
  const { message } = App.useApp();
  const tImport = useTranslations("rankTables.import");
  const tProgress = useTranslations("rankTables.importProgress");
  const [progress, setProgress] = useState<ImportProgress | undefined>();
  const current = useRef<ImportRun | undefined>(undefined);

  const stop = useCallback(() => {
    const run = current.current;
    if (!run) return;
    run.cancelled = true;
    run.abort?.();
    current.current = undefined;
    stopImportWork();
    setProgress(undefined);
  }, [stopImportWork]);

  const runImport = async (source: string | File | RemoteText, fileName: string | undefined) => {
    stop();
    const run: ImportRun = { cancelled: false };
    current.current = run;
    // The share read goes to the progress bar alone (percentStore): the stages re-render the workspace, the percents not.
    const read = percentStore();
    const report = (stage: ImportProgress["stage"]) => !run.cancelled && setProgress({ stage, name: fileName, ...(stage === "reading" ? { percent: read } : {}) });
    const reading = (percent: number) => !run.cancelled && read.set(percent);
    try {
      if (typeof source !== "string") {
        // Read in chunks by the worker: a large table never becomes one string, nor crosses to this thread whole.
        report("reading");
        const opened = await openFile(source, reading, onNotes);
        if (run.cancelled) return;
        if (opened?.kind === "notJson" && (!(source instanceof File) || source.size > TEXT_VIEW_MAX_BYTES)) {
          message.error(tImport("notJsonAt", { name: sourceName(source, fileName), offset: opened.offset }));
          return;
        }
        if (opened !== undefined && opened.kind !== "notJson") {
          report("rendering");
          await afterPaint();
          if (run.cancelled) return;
          if (opened.kind === "hosted") onHosted(opened, fileName);
          else onImported(opened.table, "", fileName, !(source instanceof File));
          return;
        }
        // Not JSON (and small enough to show as text), or no worker: the text path below says where it breaks. A saved
        // revision's text too long for the page has no other path.
        if (!(source instanceof File)) throw new Error("no worker to read the saved table into");
      }
      let text: string;
      if (typeof source === "string") text = source;
      else {
        report("reading");
        const reader = readFileText(source, reading);
        run.abort = reader.abort;
        text = await reader.text;
      }
      if (run.cancelled) return;
      const imported = await importText(text, (stage) => report(stage), onNotes);
      if (run.cancelled) return;
      // The worker validates while the table is drawn (both stages show as running); the report follows.
      report("rendering");
      await afterPaint();
      if (run.cancelled) return;
      onImported(imported, text, fileName, false);
    } catch (error) {
      if (run.cancelled || error instanceof ImportCancelled) return;
      message.error(typeof source === "string" ? (error as Error).message : tImport("readFailed", { name: sourceName(source, fileName) }));
    } finally {
      if (current.current === run) {
        current.current = undefined;
        setProgress(undefined);
      }
    }
  };

  /** The user's Cancel: whatever was there before stays. */
  const cancel = () => {
    stop();
    message.info(tProgress("cancelled"));
  };

  return { progress, runImport, cancel };
}
