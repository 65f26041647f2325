"use client";

import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { conflictCurrent, getRevisionBlob, rankTablesKey, saveRankTableText, uploadHostedTable, type SavedRevision } from "./api";
import { clearDraft, draftKey } from "./drafts";

interface Options {
  /** The revision the editor started from (undefined: a new table). */
  initial: SavedRevision | undefined;
  name: string;
  clusterId: number | null;
  write: (jsonString: boolean) => Promise<Blob>;
  onSaved: () => void;
  /** After a restore is saved (table `id`): the editor is to show the table saved, which the worker does not keep. */
  onRestored: (id: number) => void;
}

/** What a save stores: the worker's table, or (`restoreOf`) an earlier revision's text as the server sent it. */
type Attempt = { restoreOf?: undefined } | { restoreOf: number; text: Blob };

/**
 * The hosted editor's save, with the revision it started from. A 409 (someone saved in between) offers to save over
 * their revision: theirs cannot be merged here, the main thread never holds either table whole. A restore sends the
 * revision's text as a Blob to PUT …/text (the streamed route takes any size), never as a string on this thread.
 */
export function useHostedSave({ initial, name, clusterId, write, onSaved, onRestored }: Options) {
  const t = useTranslations("rankTables.editor");
  const tConflict = useTranslations("rankTables.conflict");
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(initial);
  const [saving, setSaving] = useState(false);

  async function save(over: SavedRevision | undefined = saved, attempt: Attempt = {}): Promise<void> {
    if (!name.trim()) {
      message.error(t("nameRequired"));
      return;
    }
    setSaving(true);
    try {
      const detail =
        attempt.restoreOf === undefined
          ? await uploadHostedTable(over, { name: name.trim(), comment: "", clusterId }, write)
          : await saveRankTableText(over, attempt.text, { name: name.trim(), comment: t("restoredComment", { revision: attempt.restoreOf }), clusterId });
      setSaved({ id: detail.id, revision: detail.revision });
      onSaved();
      void clearDraft(draftKey(saved?.id));
      // The answer has no text to put in the cache: the list and the table's entry are fetched again when next shown.
      void queryClient.invalidateQueries({ queryKey: rankTablesKey });
      message.success(t("saved", { revision: detail.revision }));
      if (attempt.restoreOf !== undefined) onRestored(detail.id);
    } catch (error) {
      const theirs = conflictCurrent(error);
      if (!theirs) {
        message.error(t("saveFailed", { reason: (error as Error).message }));
        return;
      }
      modal.confirm({
        title: tConflict("title"),
        content: attempt.restoreOf === undefined ? tConflict("explain", { revision: theirs.revision, author: theirs.updatedBy ?? "?" }) : tConflict("explainRestore", { revision: theirs.revision, author: theirs.updatedBy ?? "?", restoring: attempt.restoreOf }),
        okText: tConflict("overwrite", { revision: theirs.revision }),
        cancelText: tConflict("later"),
        onOk: () => void save({ id: theirs.id, revision: theirs.revision }, attempt),
      });
    } finally {
      setSaving(false);
    }
  }

  /** Saves revision `revision` of the saved table as its new revision; rejects when the revision cannot be read. */
  async function restore(revision: number): Promise<void> {
    if (!saved) return;
    await save(saved, { restoreOf: revision, text: await getRevisionBlob(saved.id, revision) });
  }

  return { saved, saving, save: () => save(), restore };
}
