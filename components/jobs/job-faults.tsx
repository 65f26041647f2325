"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, Empty, Skeleton, Space, Statistic } from "antd";
import { Link } from "@/components/primitives/link";
import { useTranslations } from "next-intl";
import { memo, useDeferredValue, useMemo, useState } from "react";
import { faultKeys, fetchTimeline, type TimelineFilters } from "@/components/faults/api";
import { EventsTable } from "@/components/faults/events-table";
import { useDuration, useNow } from "@/components/faults/format";
import { faultCost } from "@/lib/jobs/fault-cost";
import type { JobSummary } from "./api";

/**
 * The fault events that hit the job's dies, links or servers while it ran (the timeline's job filter), and what they
 * cost it: the time under faults that stop work, counted once however many dies they hit.
 */
export const JobFaults = memo(function JobFaults({ job }: { job: Pick<JobSummary, "id" | "cluster" | "startedAt" | "endedAt"> }) {
  const t = useTranslations("jobs");
  const duration = useDuration();
  const now = useNow();
  const [selected, setSelected] = useState<string | undefined>();
  const started = job.startedAt ? Date.parse(job.startedAt) : null;
  const ended = job.endedAt ? Date.parse(job.endedAt) : null;
  // Fixed while the page is open (a running job's window is read up to the page's load), so the query key is stable.
  const [until] = useState(() => Date.now());
  const filters: TimelineFilters | null = started === null ? null : { cluster: job.cluster.slug, from: started, to: (ended ?? until) + 1, kind: [], level: [], state: "all", job: job.id };
  const timeline = useQuery({ queryKey: filters ? faultKeys.timeline(filters) : ["faults", "none"], queryFn: ({ signal }) => fetchTimeline(filters!, signal), enabled: filters !== null });
  // The answer (up to thousands of events) is rendered in a deferred render, in slices, not in the query's
  // notification task, which re-renders its subscribers synchronously (issue 21: no task over 50 ms).
  const data = useDeferredValue(timeline.data);
  const cost = useMemo(() => faultCost(data?.events ?? [], { startedAt: started, endedAt: ended }, now), [data, started, ended, now]);
  if (started === null) return <Alert type="info" showIcon title={t("cost.notStarted")} />;
  if (timeline.error) return <Alert type="error" showIcon title={timeline.error.message} />;
  if (!data) return <Skeleton active />;
  const link = `/faults?${new URLSearchParams({ cluster: job.cluster.slug, from: String(started), to: String(ended ?? now) })}`;
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }}>
      <Space size={40} wrap data-testid="job-cost">
        <Statistic title={t("cost.stopped")} value={cost.stoppedMs > 0 ? duration(cost.stoppedMs) : "0"} />
        <Statistic title={t("cost.run")} value={duration(cost.runMs)} />
        <Statistic title={t("cost.events")} value={cost.stoppingEvents} />
      </Space>
      {cost.stoppedMs === 0 && <Alert type="success" showIcon title={t("cost.none")} />}
      {data.events.length ? (
        <EventsTable events={data.events} now={now} selectedId={selected} onSelect={(e) => setSelected(e.id)} />
      ) : (
        <Empty description={t("noFaults")} />
      )}
      <Link href={link}>{t("cost.openTimeline")}</Link>
    </Space>
  );
});
