"use client";

import { useEffect, useState } from "react";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import type { JsonValue } from "@/lib/rank-table";
import type { ClusterLinkValue } from "./cluster-link";
import { clearDraft, draftKey, loadDraft, saveDraft, type Draft } from "./drafts";

/** A draft is written this long after the last edit. */
const DRAFT_DELAY_MS = 700;

interface Options {
  /** The table as last saved (undefined for a new one). */
  saved: RankTableDetail | undefined;
  table: JsonValue | undefined;
  /** Whether there is unsaved work. */
  dirty: boolean;
  name: string;
  link: ClusterLinkValue;
  /** Canonical text of a table (by the validation worker for large tables, so a draft never blocks typing). */
  write: (table: JsonValue) => Promise<string>;
}

/**
 * Unsaved work survives leaving the page: it is kept in the browser a moment after the last edit, offered back
 * (`offer`) when the table is opened again, and the browser asks before a tab with unsaved work is closed.
 */
export function useDraftAutosave({ saved, table, dirty, name, link, write }: Options) {
  const key = draftKey(saved?.id);
  const [offer, setOffer] = useState<Draft | undefined>();

  // Offer back unsaved work from an earlier visit.
  useEffect(() => {
    let cancelled = false;
    void loadDraft(key).then((draft) => {
      // A saved text held by the server (largeText) is not here to compare with: the draft is offered.
      if (!cancelled && draft && (saved?.largeText !== undefined || draft.text !== saved?.text)) setOffer(draft);
    });
    return () => {
      cancelled = true;
    };
    // Only when the table being edited changes identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Keep unsaved work in the browser, a moment after the last edit.
  useEffect(() => {
    if (!dirty || table === undefined) return;
    let superseded = false;
    const timer = setTimeout(
      () =>
        void write(table).then((text) => {
          if (!superseded) return saveDraft({ key, name, baseRevision: saved?.revision ?? 0, text, cluster: saved ? undefined : link, savedAt: new Date().toISOString() });
        }),
      DRAFT_DELAY_MS,
    );
    return () => {
      superseded = true;
      clearTimeout(timer);
    };
  }, [dirty, table, key, name, link, saved, write]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  /** The offer was taken up (the draft is now being edited). */
  const close = () => setOffer(undefined);
  /** The draft is thrown away. */
  const discard = () => {
    void clearDraft(key);
    setOffer(undefined);
  };

  return { offer, close, discard };
}
