"use client";
/**
 * Unsaved work, kept in the browser (IndexedDB: a 16,384-rank table is larger than localStorage allows) so that a
 * closed tab, a crash or a failed save loses nothing: the editor offers the draft back when the table is opened.
 */
import type { ClusterLinkValue } from "./cluster-link";

export interface Draft {
  /** "new" or the table's id. */
  key: string;
  name: string;
  /** The revision the draft started from (0 for a table not saved yet). */
  baseRevision: number;
  /** The table's canonical text; "" when it is in `blob` instead. */
  text: string;
  /** A table the worker keeps (hosted-workspace.tsx): its text as a Blob of parts, never one string. */
  blob?: Blob | undefined;
  /** A table not saved yet keeps its cluster link here; a saved table's link is saved as soon as it is chosen. */
  cluster?: ClusterLinkValue | undefined;
  savedAt: string;
}

const DB = "rankscope-drafts";
const STORE = "drafts";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB is not available"));
  });
}

async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = action(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
    });
  } finally {
    db.close();
  }
}

export const draftKey = (id: number | undefined) => (id === undefined ? "new" : String(id));

export async function loadDraft(key: string): Promise<Draft | undefined> {
  try {
    return (await run<Draft | undefined>("readonly", (store) => store.get(key) as IDBRequest<Draft | undefined>)) ?? undefined;
  } catch {
    return undefined;
  }
}

export async function saveDraft(draft: Draft): Promise<void> {
  try {
    await run("readwrite", (store) => store.put(draft));
  } catch {
    // A browser without IndexedDB (private mode) just has no drafts.
  }
}

export async function clearDraft(key: string): Promise<void> {
  try {
    await run("readwrite", (store) => store.delete(key));
  } catch {
    // nothing to clear
  }
}
