"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Empty, Skeleton, Space, Typography } from "antd";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { JobDetail } from "@/db/schema/job/validation";
import { queryOf } from "@/lib/jobs/url";
import { fetchJobPorts, portKeys } from "./api";
import { BindingsTable } from "./bindings-table";
import { PortFindings } from "./findings-list";

const live: readonly JobDetail["state"][] = ["running", "pending", "unknown"];

/**
 * The job page's "Ports" section: the job's ports per host and its PT findings against the jobs sharing its hosts
 * (the same check the jobs API runs on every write), with a link to the cluster's ports page on this job.
 */
export function JobPorts({ job }: { job: Pick<JobDetail, "id" | "state" | "cluster"> }) {
  const t = useTranslations("ports.job");
  const isLive = live.includes(job.state);
  const ports = useQuery({
    queryKey: portKeys.job(job.cluster.slug, job.id),
    queryFn: ({ signal }) => fetchJobPorts(job.cluster.slug, job.id, signal),
    enabled: isLive,
  });
  if (!isLive) return <Typography.Text type="secondary">{t("ended")}</Typography.Text>;
  if (ports.error)
    return <Alert type="error" showIcon title={t("failed", { message: ports.error.message })} action={<Button onClick={() => void ports.refetch()}>{t("retry")}</Button>} />;
  if (!ports.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  const { hosts, findings, summary } = ports.data;
  const bindings = hosts.flatMap((h) => h.bindings);
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }} data-testid="job-ports">
      <Space wrap>
        <Typography.Text>{t("summary", { hosts: summary.hosts, bindings: summary.bindings, errors: summary.errors, warnings: summary.warnings })}</Typography.Text>
        <Link href={`/ports?${queryOf({ cluster: job.cluster.slug, job: job.id })}`}>{t("open")}</Link>
      </Space>
      {bindings.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("none")} /> : <BindingsTable bindings={bindings} label={t("bindings")} show="host" />}
      <Typography.Text strong>{t("findings")}</Typography.Text>
      <PortFindings findings={findings} pageSize={10} />
    </Space>
  );
}
