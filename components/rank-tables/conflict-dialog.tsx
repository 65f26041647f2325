"use client";

import { Alert, Button, Descriptions, List, Modal, Space, Typography } from "antd";
import { useFormatter, useTranslations } from "next-intl";
import { useMemo } from "react";
import type { RankTableDetail } from "@/db/schema/rank-table/validation";
import { parseRankTable, type JsonValue } from "@/lib/rank-table";
import { diffTables } from "@/lib/rank-table-workspace/diff";
import { mergeTables } from "@/lib/rank-table-workspace/merge";
import { DiffList } from "./diff-list";

/**
 * Someone saved in between: shows both versions (theirs as saved, mine as edited, and what differs between them)
 * and lets the user merge their edits onto theirs, keep theirs (reload), or save theirs over it.
 */
export function ConflictDialog({
  theirs,
  base,
  mine,
  restoring,
  onMerge,
  onReload,
  onOverwrite,
  onCancel,
}: {
  theirs: RankTableDetail;
  base: JsonValue | undefined;
  mine: JsonValue;
  /** Set when "mine" is an old revision being restored rather than the editor's edits. */
  restoring?: number | undefined;
  onMerge: (table: JsonValue, conflicts: number) => void;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations("rankTables.conflict");
  const format = useFormatter();
  const theirTable = useMemo(() => parseRankTable(theirs.text).value, [theirs.text]);
  const difference = useMemo(() => diffTables(theirTable, mine), [theirTable, mine]);
  const merged = useMemo(() => (base === undefined || theirTable === undefined ? undefined : mergeTables(base, mine, theirTable)), [base, mine, theirTable]);
  return (
    <Modal open title={t("title")} width={820} onCancel={onCancel} footer={null}>
      <Space orientation="vertical" style={{ width: "100%" }}>
        <Alert type="warning" showIcon title={t("explain", { revision: theirs.revision, author: theirs.updatedBy ?? "?" })} />
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label={t("theirs")}>
            {t("revisionBy", { revision: theirs.revision, author: theirs.updatedBy ?? "?" })} · {format.dateTime(new Date(theirs.updatedAt), { dateStyle: "short", timeStyle: "short" })} ·{" "}
            {t("summary", { errors: theirs.summary.errors, warnings: theirs.summary.warnings })}
          </Descriptions.Item>
          <Descriptions.Item label={t("mine")}>{restoring === undefined ? t("mineDetail") : t("mineRestoring", { revision: restoring })}</Descriptions.Item>
        </Descriptions>
        <Typography.Text strong>{t("differences", { count: difference.entries.length })}</Typography.Text>
        <DiffList diff={difference} beforeLabel={t("theirs")} afterLabel={t("mine")} height={260} />
        {merged && merged.conflicts.length > 0 && (
          <Alert
            type="info"
            showIcon
            title={t("bothChanged", { count: merged.conflicts.length })}
            description={<List size="small" dataSource={merged.conflicts.slice(0, 5)} renderItem={(entry) => <List.Item>{entry.scope === "device" ? `${entry.serverId} / ${entry.deviceId} / ${entry.field}` : entry.scope === "server" ? `${entry.serverId} / ${entry.field}` : entry.field}</List.Item>} />}
          />
        )}
        <Space wrap>
          <Button type="primary" disabled={!merged} onClick={() => merged && onMerge(merged.table, merged.conflicts.length)}>
            {t("merge")}
          </Button>
          <Button onClick={onReload}>{t("reload")}</Button>
          <Button danger onClick={onOverwrite}>
            {t("overwrite", { revision: theirs.revision })}
          </Button>
          <Button type="text" onClick={onCancel}>
            {t("later")}
          </Button>
        </Space>
      </Space>
    </Modal>
  );
}
