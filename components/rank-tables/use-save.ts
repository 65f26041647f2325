"use client";

import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type ComponentProps, useCallback, useState } from "react";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { parseRankTable, writeRankTable, type JsonValue } from "@/lib/rank-table";
import { conflictCurrent, createRankTable, rankTableKey, rankTablesKey, saveRankTable, saveRankTableText, type SaveFields, type SavedRevision } from "./api";
import type { ConflictDialog } from "./conflict-dialog";
import { clearDraft, draftKey } from "./drafts";
import { rankTableBlob } from "./table-blob";

/** A save of the editor's table, or of a restored revision's text (`restoreOf`). */
interface SaveOptions {
  restoreOf?: number | undefined;
  text?: string | undefined;
}

/** A save refused because someone saved in between: their revision, and what this save tried to store (a restore's table, not the editor's). */
interface Conflict {
  theirs: RankTableDetail;
  mine: JsonValue;
  attempt: SaveOptions;
}

/**
 * A streamed save, answered as the saved table. Its answer has no text: the text sent is the one saved (the server
 * stores its canonical form), unless it was too long to be one string, when the saved revision's text is said to be
 * held by the server (`largeText`, as the page gets such a revision) rather than kept as an empty text.
 */
async function saveStreamed(at: SavedRevision | undefined, blob: Blob, fields: SaveFields, text: string | undefined): Promise<RankTableDetail> {
  const detail = await saveRankTableText(at, blob, fields);
  return text === undefined ? { ...detail, text: "", largeText: { bytes: blob.size } } : { ...detail, text };
}

/** The text a save sends; undefined when the table is longer than a JavaScript string can hold (V8: 2^29 - 24 characters). */
function tableText(table: JsonValue, text: string | undefined): string | undefined {
  if (text !== undefined) return text;
  try {
    return writeRankTable(table);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

interface Options {
  /** The saved table as opened (undefined for a new one), and its parsed content. */
  initial: RankTableDetail | undefined;
  opened: JsonValue | undefined;
  /** What a save stores. */
  table: JsonValue | undefined;
  name: string;
  comment: string;
  /** The cluster a new table is linked to when first saved. */
  clusterId: number | null;
  /** Shows a table from the server (the saved one, theirs, a merge) as one undoable step of the editor. */
  show: (table: JsonValue) => void;
  /** After a save: what belonged to the work just saved (its comment, its import's notes) is done. */
  onSaved: () => void;
}

/**
 * Saving with the revision it started from (a new table is created, and the page moves to its address), and the
 * conflict when someone saved in between: `conflict` is then the dialog's props (merge, reload theirs, overwrite).
 * `saved` is the table as last saved or reloaded; `cleanTable` its content, to know whether there is unsaved work
 * (`reopened`: the saved revision's content, read after the page opened).
 */
export function useSave({ initial, opened, table, name, comment, clusterId, show, onSaved }: Options) {
  const t = useTranslations("rankTables.editor");
  const { message } = App.useApp();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<RankTableDetail | undefined>(initial);
  const [cleanTable, setCleanTable] = useState<JsonValue | undefined>(opened);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Conflict | undefined>();

  const save = useCallback(
    async (options: SaveOptions & { overwrite?: RankTableDetail } = {}) => {
      if (table === undefined && options.text === undefined) return;
      if (!name.trim()) {
        message.error(t("nameRequired"));
        return;
      }
      const text = tableText(table!, options.text);
      // Past the API's JSON limit (rankTableBodyLimit, constants.ts) the text itself goes to the streamed route
      // (POST /rank-tables/text for a new table, PUT …/text for a revision), with the name and comment in its query.
      const streamed = text === undefined || text.length > rankTableBodyLimit;
      const body = { name: name.trim(), text: text ?? "", comment: options.restoreOf ? t("restoredComment", { revision: options.restoreOf }) : comment };
      setSaving(true);
      try {
        const at = saved && { id: saved.id, revision: options.overwrite?.revision ?? saved.revision };
        const result = streamed
          ? await saveStreamed(at, text === undefined ? rankTableBlob(table!) : new Blob([text], { type: "application/json" }), { ...body, clusterId }, text)
          : at
            ? await saveRankTable(at.id, at.revision, body)
            : await createRankTable({ ...body, clusterId });
        setSaved(result);
        // The streamed save's answer has no text: the table sent is the one saved (the server stores its canonical text).
        const value = streamed ? (options.text === undefined ? table : parseRankTable(options.text).value) : parseRankTable(result.text).value;
        show(value ?? null);
        setCleanTable(value);
        onSaved();
        // Not awaited, as the hosted save does: the revision is saved whatever the browser's draft store does, and
        // waiting on it (an IndexedDB transaction behind a busy disk) held the new revision's label back.
        void clearDraft(draftKey(saved?.id));
        setConflict(undefined);
        void queryClient.invalidateQueries({ queryKey: rankTablesKey });
        if (!streamed) queryClient.setQueryData(rankTableKey(result.id), result);
        message.success(t("saved", { revision: result.revision }));
        if (!saved) router.replace(`/rank-tables/${result.id}`);
      } catch (error) {
        const current = conflictCurrent(error);
        const mine = options.text === undefined ? table : parseRankTable(options.text).value;
        if (current && mine !== undefined) setConflict({ theirs: current, mine, attempt: { restoreOf: options.restoreOf, text: options.text } });
        else message.error(t("saveFailed", { reason: (error as Error).message }));
      } finally {
        setSaving(false);
      }
    },
    [table, name, comment, clusterId, saved, show, onSaved, message, t, queryClient, router],
  );

  /** Takes their revision as the saved one, and shows `merged` (mine merged onto theirs) or else theirs in the editor. */
  const takeTheirs = (theirs: RankTableDetail, merged?: JsonValue) => {
    const value = parseRankTable(theirs.text).value ?? null;
    setSaved(theirs);
    setCleanTable(value);
    // Theirs as is is the very object the clean table is, so the editor has no unsaved work.
    show(merged === undefined ? value : merged);
    setConflict(undefined);
  };

  const conflictDialog: ComponentProps<typeof ConflictDialog> | undefined = conflict && {
    theirs: conflict.theirs,
    base: cleanTable,
    mine: conflict.mine,
    restoring: conflict.attempt.restoreOf,
    onCancel: () => setConflict(undefined),
    onReload: () => takeTheirs(conflict.theirs),
    onMerge: (merged, conflicts) => {
      takeTheirs(conflict.theirs, merged);
      message.info(t("merged", { conflicts }));
    },
    onOverwrite: () => void save({ ...conflict.attempt, overwrite: conflict.theirs }),
  };

  return { saved, cleanTable, saving, save, conflictDialog, reopened: setCleanTable };
}
