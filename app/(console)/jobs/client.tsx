"use client";

import { useQuery } from "@tanstack/react-query";
import { Empty, Input, Select, Space, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { fetchJobs, jobKeys, type JobListItem } from "@/components/jobs/api";
import { JobStateTag } from "@/components/jobs/state-tag";
import { DateTime } from "@/components/primitives/date-time";
import { PageHeading } from "@/components/primitives/page-heading";
import { useUrlState } from "@/components/primitives/use-url-state";
import { jobStates } from "@/lib/jobs/model";
import { jobListSearchParams, queryOf, type JobListSearchParams } from "@/lib/jobs/url";

export function JobListClient({ initial }: { initial: JobListItem[] }) {
  const t = useTranslations("jobs");
  const [state, navigate] = useUrlState(jobListSearchParams, queryOf);
  const jobs = useQuery({ queryKey: jobKeys.list(null), queryFn: ({ signal }) => fetchJobs(null, signal), initialData: initial });
  const all = jobs.data ?? [];
  const clusters = [...new Map(all.map((j) => [j.cluster.slug, j.cluster.name])).entries()];
  const shown = all.filter(
    (j) => (!state.q || j.name.toLowerCase().includes(state.q.toLowerCase())) && (!state.cluster || j.cluster.slug === state.cluster) && (!state.state || j.state === state.state),
  );
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }}>
      <PageHeading title={t("title")} subtitle={t("subtitle")} />
      <Space wrap>
        <Input.Search allowClear placeholder={t("filterName")} aria-label={t("filterName")} defaultValue={state.q} onChange={(e) => navigate({ q: e.target.value || undefined }, "replace")} style={{ width: 240 }} />
        <Select
          aria-label={t("columns.cluster")}
          value={state.cluster ?? ""}
          onChange={(value) => navigate({ cluster: value || undefined }, "replace")}
          style={{ width: 260 }}
          options={[{ value: "", label: t("allClusters") }, ...clusters.map(([slug, name]) => ({ value: slug, label: name }))]}
        />
        <Select
          aria-label={t("columns.state")}
          value={state.state ?? ""}
          onChange={(value) => navigate({ state: (value || undefined) as JobListSearchParams["state"] }, "replace")}
          style={{ width: 160 }}
          options={[{ value: "", label: t("allStates") }, ...jobStates.map((s) => ({ value: s, label: t(`states.${s}`) }))]}
        />
        <Typography.Text type="secondary">{t("count", { count: shown.length })}</Typography.Text>
      </Space>
      <Table<JobListItem>
        rowKey="id"
        size="small"
        dataSource={shown}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t("empty")} /> }}
        columns={[
          {
            title: t("columns.name"),
            key: "name",
            sorter: (a, b) => a.name.localeCompare(b.name),
            render: (_, job) => (
              <Link href={`/jobs/${job.id}`}>
                {job.namespace === "default" ? job.name : `${job.namespace}/${job.name}`}
              </Link>
            ),
          },
          { title: t("columns.cluster"), key: "cluster", render: (_, job) => job.cluster.name, sorter: (a, b) => a.cluster.name.localeCompare(b.cluster.name) },
          { title: t("columns.state"), key: "state", render: (_, job) => <JobStateTag state={job.state} />, sorter: (a, b) => a.state.localeCompare(b.state) },
          {
            title: t("columns.size"),
            key: "size",
            align: "right",
            sorter: (a, b) => a.placement.ranks - b.placement.ranks,
            render: (_, job) => (job.placement.unmatched ? `${job.placement.placed} / ${job.placement.ranks}` : job.placement.ranks),
          },
          { title: t("columns.started"), key: "started", sorter: (a, b) => (a.startedAt ?? "").localeCompare(b.startedAt ?? ""), render: (_, job) => <DateTime value={job.startedAt} /> },
          { title: t("columns.ended"), key: "ended", render: (_, job) => <DateTime value={job.endedAt} /> },
          {
            title: t("columns.lastDiagnosis"),
            key: "diagnosis",
            render: (_, job) =>
              job.lastDiagnosis ? (
                <span>
                  {t(`phases.${job.lastDiagnosis.phase}` as "phases.unknown")} · {t("suspectsCount", { count: job.lastDiagnosis.suspects })}
                </span>
              ) : (
                <Typography.Text type="secondary">{t("noDiagnosis")}</Typography.Text>
              ),
          },
        ]}
      />
    </Space>
  );
}
