"use client";

import { Alert, Empty, Table, Tag, Typography } from "antd";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import type { JobDetail } from "./api";

type Rank = JobDetail["ranks"][number];

/** Every rank of the job's table with its die; ranks that match no die are listed with why, first. */
export function JobRanks({ job }: { job: JobDetail }) {
  const t = useTranslations("jobs");
  // Sorted and keyed once per job, not per render: a job on 100,000 ranks made every render sort and copy them all.
  const rows = useMemo(
    () => [...job.ranks].sort((a, b) => Number(a.dieId !== null) - Number(b.dieId !== null) || (a.rank ?? -1) - (b.rank ?? -1)).map((r, key) => ({ ...r, key })),
    [job.ranks],
  );
  return (
    <>
      {job.placement.unmatched > 0 && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t("unmatchedWarning", { count: job.placement.unmatched })} />}
      <Table<Rank & { key: number }>
        size="small"
        dataSource={rows}
        pagination={{ pageSize: 32, hideOnSinglePage: true }}
        columns={[
          { title: t("ranks.rank"), dataIndex: "rank", width: 80, sorter: (a, b) => (a.rank ?? -1) - (b.rank ?? -1), render: (rank: number | null) => rank ?? "—" },
          { title: t("ranks.server"), dataIndex: "serverId", render: (v: string | null) => v ?? "—" },
          { title: t("ranks.device"), dataIndex: "deviceId", width: 90, render: (v: number | null) => v ?? "—" },
          {
            title: t("ranks.deviceIp"),
            key: "ip",
            render: (_, r) => (
              <span>
                {r.deviceIp ?? "—"} {r.deviceIpDiffers && <Tag color="warning">{t("ranks.ipDiffers")}</Tag>}
              </span>
            ),
          },
          {
            title: t("ranks.die"),
            key: "die",
            render: (_, r) =>
              r.dieId ? (
                <span>
                  {r.dieId} <Typography.Text type="secondary">({t(`match.${r.match!}`)})</Typography.Text>
                </span>
              ) : (
                <Tag color="error">{t(`unmatchedReasons.${r.unmatched!}`)}</Tag>
              ),
          },
        ]}
      />
    </>
  );
}

/** The recorded environment: the variables that matter to HCCL. */
export function JobEnvironment({ job }: { job: JobDetail }) {
  const t = useTranslations("jobs");
  const entries = Object.entries(job.environment).sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return <Empty description={t("environmentEmpty", { id: job.id })} />;
  return (
    <Table
      size="small"
      pagination={false}
      dataSource={entries.map(([name, value]) => ({ key: name, name, value }))}
      columns={[
        { title: "", dataIndex: "name", width: 280, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
        { title: "", dataIndex: "value", render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
      ]}
      showHeader={false}
    />
  );
}
