"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Empty, Flex, Input, Select, Tag, Typography } from "antd";
import { Table } from "@/components/primitives/table";
import type { SorterResult } from "antd/es/table/interface";
import { useTranslations } from "next-intl";
import { memo, useState } from "react";
import { JOB_RANKS_PAGE_DEFAULT, jobRankStates, type JobRankSort, type JobRankState } from "@/db/schema/job/ranks";
import type { JobRankInfo } from "@/db/schema/job/validation";
import { fetchJobRanks, jobKeys, type JobRanksQuery, type JobSummary } from "./api";

type Row = JobRankInfo & { key: number };

/** The page the job's answer carries (`loadJobSummary`): its query, so it is the first page's cache entry. */
const firstPage: JobRanksQuery = { offset: 0, limit: JOB_RANKS_PAGE_DEFAULT, sort: "problems", order: "asc", state: "all" };
const sortOfColumn: Record<string, JobRankSort> = { rank: "rank", serverId: "server", deviceId: "device" };

/**
 * The job's ranks with their dies, a page at a time from the server (`GET /api/v1/jobs/{id}/ranks`): a job on
 * 100,000 ranks is never in the browser whole. Filtered by state and super pod, searched and sorted by the
 * database; ranks that match no die are listed first, with why.
 */
export const JobRanks = memo(function JobRanks({ job }: { job: JobSummary }) {
  const t = useTranslations("jobs");
  const [query, setQuery] = useState<JobRanksQuery>(firstPage);
  const [search, setSearch] = useState("");
  const isFirst = query === firstPage;
  const page = useQuery({
    queryKey: jobKeys.ranks(job.id, query),
    queryFn: ({ signal }) => fetchJobRanks(job.id, query, signal),
    initialData: isFirst ? job.ranks : undefined,
    placeholderData: keepPreviousData,
  });
  const change = (next: Partial<JobRanksQuery>) => setQuery((current) => ({ ...current, offset: 0, ...next }));
  const rows: Row[] = (page.data?.items ?? []).map((r, i) => ({ ...r, key: (page.data?.offset ?? 0) + i }));
  const total = page.data?.total ?? 0;
  const filtered = query.state !== "all" || query.pod !== undefined || (query.q ?? "") !== "";
  const sortOrder = (column: JobRankSort) => (query.sort === column ? (query.order === "desc" ? ("descend" as const) : ("ascend" as const)) : null);
  return (
    <>
      {job.counts.unmatched > 0 && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t("unmatchedWarning", { count: job.counts.unmatched })} />}
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          style={{ width: 280 }}
          aria-label={t("ranks.search")}
          placeholder={t("ranks.search")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(value) => change({ q: value.trim() || undefined })}
          data-testid="job-ranks-search"
        />
        <Select<JobRankState>
          aria-label={t("ranks.state")}
          style={{ width: 200 }}
          value={query.state}
          onChange={(state) => change({ state })}
          options={jobRankStates.map((state) => ({ value: state, label: t(`ranks.states.${state}`) }))}
          data-testid="job-ranks-state"
        />
        {job.pods.length > 1 && (
          <Select<string>
            aria-label={t("ranks.pod")}
            style={{ width: 320 }}
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            placeholder={t("ranks.allPods")}
            value={query.pod}
            onChange={(pod) => change({ pod: pod || undefined })}
            options={job.pods
              .filter((p) => p.superPodId !== null)
              .map((p) => ({ value: p.superPodId!, label: t("ranks.podOption", { pod: p.superPodId!, ranks: p.ranks, servers: p.servers }) }))}
          />
        )}
        <Typography.Text type="secondary" data-testid="job-ranks-total">
          {filtered ? t("ranks.filteredTotal", { count: total, all: job.counts.total }) : t("ranks.total", { count: total })}
        </Typography.Text>
      </Flex>
      {page.error ? (
        <Alert type="error" showIcon title={page.error.message} />
      ) : (
        // The test id on a wrapper: a Table puts its own on the table, not on the pagination beside it.
        <div data-testid="job-ranks">
        <Table<Row>
          size="small"
          loading={page.isFetching && page.isPlaceholderData}
          dataSource={rows}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
          pagination={{
            current: Math.floor(query.offset / query.limit) + 1,
            pageSize: query.limit,
            total,
            hideOnSinglePage: true,
            showSizeChanger: true,
            pageSizeOptions: [20, 50, 100, 200],
          }}
          onChange={(pagination, _filters, sorter) => {
            const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
            const column = typeof one?.field === "string" ? sortOfColumn[one.field] : undefined;
            const sort: JobRankSort = one?.order && column ? column : "problems";
            const order = one?.order === "descend" ? "desc" : "asc";
            const limit = pagination.pageSize ?? query.limit;
            const sortChanged = sort !== query.sort || order !== query.order || limit !== query.limit;
            setQuery((current) => ({ ...current, sort, order, limit, offset: sortChanged ? 0 : ((pagination.current ?? 1) - 1) * limit }));
          }}
          columns={[
            { title: t("ranks.rank"), dataIndex: "rank", width: 80, sorter: true, sortOrder: sortOrder("rank"), render: (rank: number | null) => rank ?? "—" },
            { title: t("ranks.server"), dataIndex: "serverId", sorter: true, sortOrder: sortOrder("server"), render: (v: string | null) => v ?? "—" },
            { title: t("ranks.device"), dataIndex: "deviceId", width: 90, sorter: true, sortOrder: sortOrder("device"), render: (v: number | null) => v ?? "—" },
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
        </div>
      )}
    </>
  );
});

/** The recorded environment: the variables that matter to HCCL. */
export const JobEnvironment = memo(function JobEnvironment({ job }: { job: Pick<JobSummary, "id" | "environment"> }) {
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
});
