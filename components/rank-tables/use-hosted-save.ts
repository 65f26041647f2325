"use client";

import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { conflictCurrent, rankTablesKey, uploadHostedTable, type SavedRevision } from "./api";
import { clearDraft, draftKey } from "./drafts";

interface Options {
  /** The revision the editor started from (undefined: a new table). */
  initial: SavedRevision | undefined;
  name: string;
  clusterId: number | null;
  write: (jsonString: boolean) => Promise<Blob>;
  onSaved: () => void;
}

/**
 * The hosted editor's save, with the revision it started from. A 409 (someone saved in between) offers to save over
 * their revision: theirs cannot be merged here, the main thread never holds either table whole.
 */
export function useHostedSave({ initial, name, clusterId, write, onSaved }: Options) {
  const t = useTranslations("rankTables.editor");
  const tConflict = useTranslations("rankTables.conflict");
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(initial);
  const [saving, setSaving] = useState(false);

  async function save(over: SavedRevision | undefined = saved): Promise<void> {
    if (!name.trim()) {
      message.error(t("nameRequired"));
      return;
    }
    setSaving(true);
    try {
      const detail = await uploadHostedTable(over, { name: name.trim(), comment: "", clusterId }, write);
      setSaved({ id: detail.id, revision: detail.revision });
      onSaved();
      void clearDraft(draftKey(saved?.id));
      // The answer has no text to put in the cache: the list and the table's entry are fetched again when next shown.
      void queryClient.invalidateQueries({ queryKey: rankTablesKey });
      message.success(t("saved", { revision: detail.revision }));
    } catch (error) {
      const theirs = conflictCurrent(error);
      if (!theirs) {
        message.error(t("saveFailed", { reason: (error as Error).message }));
        return;
      }
      modal.confirm({
        title: tConflict("title"),
        content: tConflict("explain", { revision: theirs.revision, author: theirs.updatedBy ?? "?" }),
        okText: tConflict("overwrite", { revision: theirs.revision }),
        cancelText: tConflict("later"),
        onOk: () => void save({ id: theirs.id, revision: theirs.revision }),
      });
    } finally {
      setSaving(false);
    }
  }

  return { saved, saving, save };
}
