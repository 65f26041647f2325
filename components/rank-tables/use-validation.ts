"use client";

import { useEffect, useRef, useState } from "react";
import { validateRankTable, type JsonValue, type Lang, type ValidationReport } from "@/lib/rank-table";
import type { Edit } from "@/lib/rank-table-workspace/edit";
import type { ValidationRequest } from "./validation.worker";

/** Tables with at least this many dies are validated in a Web Worker; smaller ones right away. */
export const WORKER_FROM_DEVICES = 2000;

export interface Validation {
  report: ValidationReport | undefined;
  /** True while a newer report is being computed. */
  pending: boolean;
}

/**
 * Live validation of the table being edited. `lastEdit` is the edit that produced `table` from the previous table
 * (when known): the worker then gets only the edit instead of the whole table.
 */
export function useValidation(table: JsonValue | undefined, lastEdit: { edit: Edit; from: JsonValue } | undefined, lang: Lang, devices: number): Validation {
  const [state, setState] = useState<{ report: ValidationReport | undefined; seq: number }>({ report: undefined, seq: 0 });
  const [pendingSeq, setPendingSeq] = useState(0);
  const worker = useRef<Worker | undefined>(undefined);
  const workerTable = useRef<JsonValue | undefined>(undefined);
  const workerLang = useRef<Lang | undefined>(undefined);
  const seq = useRef(0);
  /** Set when the worker cannot run (blocked by policy, failed to load): validation then runs here. */
  const [workerFailed, setWorkerFailed] = useState(false);
  const useWorker = devices >= WORKER_FROM_DEVICES && typeof Worker !== "undefined" && !workerFailed;

  useEffect(() => () => worker.current?.terminate(), []);

  useEffect(() => {
    if (table === undefined) return;
    const current = ++seq.current;
    if (!useWorker) {
      const report = validateRankTable(table, { lang });
      setState({ report, seq: current });
      setPendingSeq(current);
      return;
    }
    if (!worker.current) {
      worker.current = new Worker(new URL("./validation.worker.ts", import.meta.url), { type: "module" });
      worker.current.onmessage = (event: MessageEvent<{ seq: number; report: ValidationReport }>) => {
        const { seq: answered, report } = event.data;
        setState((previous) => (answered > previous.seq ? { report, seq: answered } : previous));
      };
      worker.current.onerror = () => {
        worker.current?.terminate();
        worker.current = undefined;
        setWorkerFailed(true);
      };
      workerTable.current = undefined;
    }
    const canPatch = lastEdit !== undefined && lastEdit.from === workerTable.current && lastEdit.edit.type !== "replace" && workerLang.current === lang;
    const edit: Edit = canPatch ? lastEdit.edit : { type: "replace", table };
    workerTable.current = table;
    workerLang.current = lang;
    worker.current.postMessage({ seq: current, edit, lang } satisfies ValidationRequest);
    setPendingSeq(current);
  }, [table, lastEdit, lang, useWorker]);

  return { report: state.report, pending: state.seq < pendingSeq };
}
