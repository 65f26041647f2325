"use client";

import { useQuery } from "@tanstack/react-query";
import { Breadcrumb, Card, Descriptions, Skeleton, Space, Typography } from "antd";
import { Link } from "@/components/primitives/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { startTransition, useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { useDuration, useNow } from "@/components/faults/format";
import { fetchDiagnoses, fetchJob, jobKeys, type JobDiagnosis, type JobSummary } from "@/components/jobs/api";
import { DiagnosisPanel } from "@/components/jobs/diagnosis-panel";
import { JobCpuBinding } from "@/components/jobs/job-cpu-binding";
import { JobFaults } from "@/components/jobs/job-faults";
import { JobEnvironment, JobRanks } from "@/components/jobs/job-ranks";
import { JobTopology } from "@/components/jobs/job-topology";
import { JobStateTag } from "@/components/jobs/state-tag";
import { JobPorts } from "@/components/ports/job-ports";
import { DateTime } from "@/components/primitives/date-time";
import { PageHeading } from "@/components/primitives/page-heading";
import { jobPageSearchParams, queryOf } from "@/lib/jobs/url";

/** The longest the sections under the topology wait for its drawing (a 100,000-rank job's is drawn in 1.5-2.2 s). */
const SECTIONS_WAIT_MS = 6_000;

/** The run's duration, ticking while it runs: the clock re-renders this text only, not the page's sections. */
function RunDuration({ started, ended }: { started: number | null; ended: number | null }) {
  const duration = useDuration();
  const now = useNow();
  return started === null ? "—" : duration((ended ?? now) - started);
}

export function JobClient({ initialJob, initialDiagnoses }: { initialJob: JobSummary; initialDiagnoses: JobDiagnosis[] }) {
  const t = useTranslations("jobs");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const state = useMemo(() => jobPageSearchParams.parse(Object.fromEntries(searchParams)), [searchParams]);
  const id = initialJob.id;
  const job = useQuery({ queryKey: jobKeys.detail(id), queryFn: ({ signal }) => fetchJob(id, signal), initialData: initialJob }).data;
  const diagnoses = useQuery({ queryKey: jobKeys.diagnoses(id), queryFn: ({ signal }) => fetchDiagnoses(id, signal), initialData: initialDiagnoses }).data;
  const shown = diagnoses.find((d) => d.id === state.diagnosis) ?? diagnoses[0] ?? null;
  const showDiagnosis = useCallback(
    (diagnosis: number) => {
      const query = queryOf({ diagnosis });
      window.history.pushState(null, "", `${pathname}?${query}`);
    },
    [pathname],
  );
  const started = job.startedAt ? Date.parse(job.startedAt) : null;
  const ended = job.endedAt ? Date.parse(job.endedAt) : null;
  const title = job.namespace === "default" ? job.name : `${job.namespace}/${job.name}`;
  // The sections under the topology are rendered, and ask for their data, once it is drawn (or cannot be, see
  // JobTopology's onShown): rendered beside its drawing, a 100,000-rank job's tables split the main thread with it
  // and it was drawn 0.7 s later (issue 21: navigation to drawn under 2 s).
  const [topologyShown, setTopologyShown] = useState(false);
  // In a transition: rendered in slices, not in one task of 140-160 ms.
  const showSections = useCallback(() => startTransition(() => setTopologyShown(true)), []);
  const later = (section: ReactNode) => (topologyShown ? section : <Skeleton active />);
  // A topology that is not drawn by then (its request hangs, the server is slow) holds them back no longer.
  useEffect(() => {
    const timer = window.setTimeout(showSections, SECTIONS_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [showSections]);
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }}>
      <Breadcrumb items={[{ title: <Link href="/jobs">{t("back")}</Link> }, { title }]} />
      <PageHeading title={title} extra={<JobStateTag state={job.state} />} />
      <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
        <Descriptions.Item label={t("fields.cluster")}>
          <Link href={`/topology?cluster=${job.cluster.slug}`}>{job.cluster.name}</Link>
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.namespace")}>{job.namespace}</Descriptions.Item>
        <Descriptions.Item label={t("fields.source")}>{t(`sources.${job.source}`)}</Descriptions.Item>
        <Descriptions.Item label={t("fields.started")}>
          <DateTime value={job.startedAt} />
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.ended")}>
          <DateTime value={job.endedAt} />
        </Descriptions.Item>
        <Descriptions.Item label={t("fields.duration")}><RunDuration started={started} ended={ended} /></Descriptions.Item>
        <Descriptions.Item label={t("fields.rankTable")}>
          {job.rankTableId !== null ? (
            <Link href={`/rank-tables/${job.rankTableId}`}>{t("openRankTable")}</Link>
          ) : job.rankTableBytes !== null ? (
            <a href={`/api/v1/jobs/${job.id}/rank-table`}>{t("broughtTable")}</a>
          ) : (
            t("noTable")
          )}
        </Descriptions.Item>
        {job.rankTableStatus && <Descriptions.Item label={t("fields.tableStatus")}>{job.rankTableStatus}</Descriptions.Item>}
        {job.configVersion && <Descriptions.Item label={t("fields.configVersion")}>{job.configVersion}</Descriptions.Item>}
      </Descriptions>
      <Typography.Text type="secondary" data-testid="placement-summary">
        {t("placementSummary", { placed: job.placement.placed, ranks: job.placement.ranks, servers: job.placement.servers })}
      </Typography.Text>
      <Card size="small" title={t("sections.topology")}>
        <JobTopology job={job} report={shown?.report ?? null} onShown={showSections} />
      </Card>
      <Card size="small" title={t("sections.diagnosis")}>
        <DiagnosisPanel jobId={job.id} diagnoses={diagnoses} shown={shown} onShow={showDiagnosis} />
      </Card>
      <Card size="small" title={t("sections.faults")}>
        {later(<JobFaults job={job} />)}
      </Card>
      <Card size="small" title={t("sections.ports")}>
        {later(<JobPorts job={job} />)}
      </Card>
      <Card size="small" title={t("sections.ranks")}>
        {later(<JobRanks job={job} />)}
      </Card>
      <Card size="small" title={t("sections.environment")}>
        {later(<JobEnvironment job={job} />)}
      </Card>
      <Card size="small" title={t("sections.cpuBinding")}>
        {later(<JobCpuBinding jobId={job.id} />)}
      </Card>
    </Space>
  );
}
