"use client";

import { Alert, Button, Space } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import type { Draft } from "./drafts";

/** Unsaved work from an earlier visit, offered back: restore it or throw it away. */
export function DraftAlert({ draft, onRestore, onDiscard }: { draft: Draft; onRestore: () => void; onDiscard: () => void }) {
  const t = useTranslations("rankTables.editor");
  const format = useFormatter();
  return (
    <Alert
      type="info"
      showIcon
      title={t("draftFound", { time: format.dateTime(new Date(draft.savedAt), { dateStyle: "medium", timeStyle: "short" }), revision: draft.baseRevision })}
      action={
        <Space>
          <Button size="small" type="primary" onClick={onRestore}>
            {t("draftRestore")}
          </Button>
          <Button size="small" onClick={onDiscard}>
            {t("draftDiscard")}
          </Button>
        </Space>
      }
    />
  );
}
