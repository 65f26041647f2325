"use client";

import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
import type { Issue, Severity } from "@/lib/rank-table";
import { indexIssues, type IssueIndex } from "@/lib/rank-table-workspace/structure";

/**
 * The current findings, for the grid's fields and rows to read one by one: a field or row marker re-renders only when
 * its own findings change, not the whole grid on every report.
 */
export interface FindingsStore {
  get: () => IssueIndex;
  set: (index: IssueIndex) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createFindingsStore(): FindingsStore {
  let current = indexIssues([]);
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(index) {
      if (index === current) return;
      current = index;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const FindingsContext = createContext<FindingsStore>(createFindingsStore());

function useFindings<T>(select: (index: IssueIndex) => T): T {
  const store = useContext(FindingsContext);
  const snapshot = useCallback(() => select(store.get()), [store, select]);
  return useSyncExternalStore(store.subscribe, snapshot, snapshot);
}

/** The findings about one field (a JSON Pointer). */
export function useFieldFindings(path: string): Issue[] | undefined {
  return useFindings(useCallback((index: IssueIndex) => index.byPath.get(path), [path]));
}

/** The worst severity among a die's findings. */
export function useRowSeverity(rowKey: string): Severity | undefined {
  return useFindings(useCallback((index: IssueIndex) => index.byRow.get(rowKey), [rowKey]));
}
