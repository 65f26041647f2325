"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Empty, Input, Skeleton, Space, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { memo, useDeferredValue, useState } from "react";
import { JOB_PORTS_PAGE_DEFAULT } from "@/db/schema/job/ports";
import type { JobDetail } from "@/db/schema/job/validation";
import { queryOf } from "@/lib/jobs/url";
import type { PortCode } from "@/lib/ports/findings";
import { fetchJobPortBindings, fetchJobPortFindings, fetchJobPortSummary, portKeys, type JobPortBindingsQuery, type JobPortFindingsQuery, type JobPortSummary } from "./api";
import { BindingsTable } from "./bindings-table";
import { PortFindings } from "./findings-list";

const live: readonly JobDetail["state"][] = ["running", "pending", "unknown"];
type JobRef = Pick<JobDetail, "id" | "state" | "cluster">;

/**
 * The job page's "Ports" section: the job's port check (the one the jobs API runs on every write) in counts, then its
 * bindings and its PT findings against the jobs sharing its hosts, each a page at a time from the server (issue 21:
 * a 131,072-rank job binds 133,121 ports), with a link to the cluster's ports page on this job. Each answer is
 * rendered in a deferred render (useDeferredValue), in slices, not in the query's notification task, which
 * re-renders its subscribers synchronously (issue 21: no task over 50 ms).
 */
export const JobPorts = memo(function JobPorts({ job }: { job: JobRef }) {
  const t = useTranslations("ports.job");
  const isLive = live.includes(job.state);
  const summary = useQuery({
    queryKey: portKeys.job(job.cluster.slug, job.id),
    queryFn: ({ signal }) => fetchJobPortSummary(job.id, signal),
    enabled: isLive,
  });
  const data = useDeferredValue(summary.data);
  if (!isLive) return <Typography.Text type="secondary">{t("ended")}</Typography.Text>;
  if (summary.error)
    return <Alert type="error" showIcon title={t("failed", { message: summary.error.message })} action={<Button onClick={() => void summary.refetch()}>{t("retry")}</Button>} />;
  if (!data) return <Skeleton active paragraph={{ rows: 3 }} />;
  const counts = data.summary;
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }} data-testid="job-ports">
      <Space wrap>
        <Typography.Text>{t("summary", { hosts: counts.hosts, bindings: counts.bindings, errors: counts.errors, warnings: counts.warnings })}</Typography.Text>
        {data.conflicts.bindings > 0 && (
          <Typography.Text type="danger" data-testid="job-ports-conflicts">
            {t("conflicts", { bindings: data.conflicts.bindings, hosts: data.conflicts.hosts })}
          </Typography.Text>
        )}
        <Link href={`/ports?${queryOf({ cluster: job.cluster.slug, job: job.id })}`}>{t("open")}</Link>
      </Space>
      {counts.bindings === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("none")} /> : <JobBindings job={job} />}
      <Typography.Text strong>{t("findings")}</Typography.Text>
      <JobFindings job={job} summary={data} />
    </Space>
  );
});

const firstBindings: JobPortBindingsQuery = { offset: 0, limit: JOB_PORTS_PAGE_DEFAULT };

function JobBindings({ job }: { job: JobRef }) {
  const t = useTranslations("ports.job");
  const [query, setQuery] = useState<JobPortBindingsQuery>(firstBindings);
  const page = useQuery({
    queryKey: portKeys.jobBindings(job.cluster.slug, job.id, query),
    queryFn: ({ signal }) => fetchJobPortBindings(job.id, query, signal),
    placeholderData: keepPreviousData,
  });
  const items = useDeferredValue(page.data);
  const conflict = query.conflict === undefined ? undefined : query.conflict === "true";
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }}>
      <Space wrap>
        <Input.Search
          aria-label={t("hostSearch")}
          placeholder={t("hostSearch")}
          allowClear
          size="small"
          style={{ width: 240 }}
          onSearch={(host) => setQuery((q) => ({ ...q, offset: 0, host: host.trim() || undefined }))}
          data-testid="job-ports-host"
        />
        <Typography.Text type="secondary" data-testid="job-ports-bindings-total">
          {t("bindingsTotal", { count: items?.total ?? 0 })}
        </Typography.Text>
      </Space>
      {page.error ? (
        <Alert type="error" showIcon title={page.error.message} />
      ) : (
        <BindingsTable
          bindings={items?.items ?? []}
          label={t("bindings")}
          show="host"
          remote={{
            total: items?.total ?? 0,
            page: query.offset / query.limit + 1,
            pageSize: query.limit,
            loading: page.isFetching,
            conflict,
            onChange: (next, nextConflict) =>
              setQuery((q) => ({ ...q, offset: (next - 1) * q.limit, conflict: nextConflict === undefined ? undefined : nextConflict ? "true" : "false" })),
          }}
        />
      )}
    </Space>
  );
}

function JobFindings({ job, summary }: { job: JobRef; summary: JobPortSummary }) {
  const [query, setQuery] = useState<JobPortFindingsQuery>({ offset: 0, limit: 10 });
  const page = useQuery({
    queryKey: portKeys.jobFindings(job.cluster.slug, job.id, query),
    queryFn: ({ signal }) => fetchJobPortFindings(job.id, query, signal),
    placeholderData: keepPreviousData,
  });
  const items = useDeferredValue(page.data);
  if (page.error) return <Alert type="error" showIcon title={page.error.message} />;
  return (
    <PortFindings
      findings={items?.items ?? []}
      code={query.code}
      onCode={(code?: PortCode) => setQuery((q) => ({ ...q, offset: 0, code }))}
      remote={{
        total: items?.total ?? 0,
        all: summary.summary.errors + summary.summary.warnings,
        page: query.offset / query.limit + 1,
        pageSize: query.limit,
        loading: page.isFetching,
        codes: summary.byCode.map((c) => c.code),
        onPage: (next) => setQuery((q) => ({ ...q, offset: (next - 1) * q.limit })),
      }}
    />
  );
}
