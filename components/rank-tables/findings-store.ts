"use client";

import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
import type { Issue, Severity } from "@/lib/rank-table";
import { indexIssues, type IssueIndex } from "@/lib/rank-table-workspace/structure";

/** A value that components read a part of: each re-renders only when its own part changes, not on every update. */
export interface Store<T> {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set(value) {
      if (value === current) return;
      current = value;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStorePart<T, S>(store: Store<T>, select: (value: T) => S): S {
  const snapshot = useCallback(() => select(store.get()), [store, select]);
  return useSyncExternalStore(store.subscribe, snapshot, snapshot);
}

/** The current findings, for the grid's fields and rows and the tree's nodes to read one by one. */
export const createFindingsStore = () => createStore<IssueIndex>(indexIssues([]));
export const FindingsContext = createContext<Store<IssueIndex>>(createFindingsStore());

/** The findings about one field (a JSON Pointer). */
export function useFieldFindings(path: string): Issue[] | undefined {
  return useStorePart(useContext(FindingsContext), useCallback((index: IssueIndex) => index.byPath.get(path), [path]));
}

/** The worst severity among a die's findings. */
export function useRowSeverity(rowKey: string | undefined): Severity | undefined {
  return useStorePart(useContext(FindingsContext), useCallback((index: IssueIndex) => (rowKey === undefined ? undefined : index.byRow.get(rowKey)), [rowKey]));
}

/** The worst severity among a server's findings (its own fields and its dies). */
export function useServerSeverity(server: number | undefined): Severity | undefined {
  return useStorePart(useContext(FindingsContext), useCallback((index: IssueIndex) => (server === undefined ? undefined : index.byServer.get(server)), [server]));
}
