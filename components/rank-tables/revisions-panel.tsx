"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Popconfirm, Select, Skeleton, Space, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import type { RevisionInfo } from "@/db/schema/rank-table/validation";
import { parseRankTable } from "@/lib/rank-table";
import { diffTables } from "@/lib/rank-table-workspace/diff";
import { HOSTED_FROM_ROWS } from "@/lib/rank-table-workspace/table-host";
import { getRevisionText, listRevisions, revisionsKey } from "./api";
import { DiffList } from "./diff-list";

interface Props {
  id: number;
  current: number;
  canWrite: boolean;
  /** Reads the revision and saves it as the new one; a rejection is a read that failed (a failed save says so itself). */
  onRestore: (revision: number) => Promise<void>;
  /**
   * The structural diff parses both revisions' texts on this thread: off for a table the worker keeps (HOSTED_FROM_ROWS
   * dies or more; its texts run to hundreds of MB), with the reason shown instead.
   */
  compare?: boolean;
}

/** The history of a saved table: every revision, a structural diff between any two, and restore-as-new. */
export function RevisionsPanel({ id, current, canWrite, onRestore, compare = true }: Props) {
  const t = useTranslations("rankTables.revisions");
  const format = useFormatter();
  const { message } = App.useApp();
  const revisions = useQuery({ queryKey: [...revisionsKey(id), current], queryFn: () => listRevisions(id) });
  const [from, setFrom] = useState<number | undefined>();
  const [to, setTo] = useState<number | undefined>();
  const a = from ?? Math.max(1, current - 1);
  const b = to ?? current;
  const diff = useQuery({
    enabled: compare,
    queryKey: [...revisionsKey(id), "diff", a, b],
    queryFn: async () => {
      const [before, after] = await Promise.all([getRevisionText(id, a), getRevisionText(id, b)]);
      return diffTables(parseRankTable(before).value, parseRankTable(after).value);
    },
  });
  if (revisions.isPending) return <Skeleton active />;
  if (revisions.isError) return <Alert type="error" showIcon title={t("loadFailed")} description={revisions.error.message} action={<Button onClick={() => revisions.refetch()}>{t("retry")}</Button>} />;
  const options = revisions.data.map((revision) => ({ value: revision.revision, label: `#${revision.revision}` }));
  return (
    <Space orientation="vertical" style={{ width: "100%" }}>
      <Table<RevisionInfo>
        size="small"
        aria-label={t("label")}
        rowKey="revision"
        pagination={revisions.data.length > 20 ? { pageSize: 20 } : false}
        dataSource={revisions.data}
        columns={[
          { title: t("revision"), dataIndex: "revision", width: 90, render: (value: number) => `#${value}${value === current ? ` (${t("current")})` : ""}` },
          { title: t("author"), key: "author", width: 140, render: (_, row) => row.author.name ?? row.author.type },
          {
            title: t("time"),
            dataIndex: "createdAt",
            width: 180,
            render: (value: string) => <span title={new Date(value).toISOString()}>{format.dateTime(new Date(value), { dateStyle: "medium", timeStyle: "medium" })}</span>,
          },
          { title: t("comment"), dataIndex: "comment" },
          { title: t("findings"), key: "summary", width: 170, render: (_, row) => t("summary", { errors: row.summary.errors, warnings: row.summary.warnings }) },
          {
            title: "",
            key: "actions",
            width: 110,
            render: (_, row) =>
              canWrite && row.revision !== current ? (
                <Popconfirm
                  title={t("restoreConfirm", { revision: row.revision, next: current + 1 })}
                  okText={t("restore")}
                  onConfirm={() => onRestore(row.revision).catch((error: Error) => void message.error(t("readFailed", { revision: row.revision, reason: error.message })))}
                >
                  <Button size="small">{t("restore")}</Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
      {!compare && <Alert type="info" showIcon title={t("compare")} description={t("compareHosted", { limit: HOSTED_FROM_ROWS })} />}
      {compare && (
        <Space wrap>
          <Typography.Text strong>{t("compare")}</Typography.Text>
          <Select aria-label={t("from")} value={a} options={options} onChange={setFrom} style={{ width: 100 }} />
          <span>→</span>
          <Select aria-label={t("to")} value={b} options={options} onChange={setTo} style={{ width: 100 }} />
          {diff.data && (
            <Typography.Text type="secondary">
              {t("counts", diff.data.counts)}
            </Typography.Text>
          )}
        </Space>
      )}
      {compare && (diff.isPending ? <Skeleton active /> : diff.isError ? <Alert type="error" title={diff.error.message} /> : <DiffList diff={diff.data} beforeLabel={`#${a}`} afterLabel={`#${b}`} height={360} />)}
    </Space>
  );
}
