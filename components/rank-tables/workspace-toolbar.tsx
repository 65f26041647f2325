"use client";

import { RedoOutlined, SaveOutlined, UndoOutlined } from "@ant-design/icons";
import { Button, Input, Space, Tag, Tooltip } from "antd";
import { useTranslations } from "next-intl";
import { useCan } from "@/components/auth/current-user";
import { TrackJobButton } from "@/components/jobs/track-job-button";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import type { JsonValue } from "@/lib/rank-table";
import { ClusterLink, type ClusterLinkValue } from "./cluster-link";
import { ExportMenu } from "./export-menu";
import { RepairsMenu } from "./repairs-menu";

interface Props {
  name: string;
  onNameChange: (name: string) => void;
  /** The saved table; undefined for a table not saved yet. */
  saved: RankTableDetail | undefined;
  dirty: boolean;
  link: ClusterLinkValue;
  onLinkChange: (link: ClusterLinkValue) => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  table: JsonValue | undefined;
  errorCount: number;
  /** A repair's table, as one undoable step. */
  onRepaired: (table: JsonValue) => void;
  comment: string;
  onCommentChange: (comment: string) => void;
  saving: boolean;
  onSave: () => void;
}

/** The workspace's header: name, revision and unsaved marks, cluster link, undo/redo, repairs, export, comment and save. */
export function WorkspaceToolbar(props: Props) {
  const { name, saved, dirty, link, table } = props;
  const t = useTranslations("rankTables.editor");
  const canWrite = useCan("write");
  return (
    <Space wrap align="center">
      <Input aria-label={t("name")} placeholder={t("name")} value={name} onChange={(event) => props.onNameChange(event.target.value)} style={{ width: 260 }} readOnly={!canWrite} />
      {saved && <Tag>{t("revisionTag", { revision: saved.revision })}</Tag>}
      {dirty && <Tag color="gold">{t("unsaved")}</Tag>}
      <ClusterLink tableId={saved?.id} value={link} onChange={props.onLinkChange} readOnly={!canWrite} />
      <Tooltip title="Ctrl+Z">
        <Button aria-label={t("undo")} icon={<UndoOutlined />} disabled={!props.canUndo} onClick={props.onUndo}>
          {t("undo")}
        </Button>
      </Tooltip>
      <Tooltip title="Ctrl+Shift+Z">
        <Button aria-label={t("redo")} icon={<RedoOutlined />} disabled={!props.canRedo} onClick={props.onRedo}>
          {t("redo")}
        </Button>
      </Tooltip>
      {canWrite && <RepairsMenu table={table} onRepaired={props.onRepaired} />}
      <ExportMenu table={table} name={name} errorCount={props.errorCount} />
      {canWrite && saved && <TrackJobButton table={saved} />}
      {canWrite && (
        <>
          <Input aria-label={t("comment")} placeholder={t("comment")} value={props.comment} onChange={(event) => props.onCommentChange(event.target.value)} style={{ width: 220 }} />
          <Button type="primary" icon={<SaveOutlined />} loading={props.saving} disabled={!dirty || table === null} onClick={props.onSave}>
            {t("save")}
          </Button>
        </>
      )}
    </Space>
  );
}
