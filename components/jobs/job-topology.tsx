"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, Skeleton, Space, Typography } from "antd";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { memo, useEffect, useMemo, useState } from "react";
import { useThemeControl } from "@/components/providers/app-providers";
import { nodeKey } from "@/components/topology/chart-option";
import { OVERLAY_COLORS } from "@/components/topology/colors";
import { loadTopologyGraph } from "@/components/topology/loaders";
import { fetchTopologyView } from "@/components/topology/queries";
import { topologyKeys } from "@/components/topology/query-keys";
import { useChartLabels } from "@/components/topology/use-chart-labels";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import { NO_EXPAND } from "@/lib/topology/url";
import { fetchJobDies, jobKeys, type JobSummary } from "./api";
import { jobOverlay } from "./overlay";

const TopologyGraph = dynamic(() => loadTopologyGraph().then((module) => module.TopologyGraph), {
  ssr: false,
  loading: () => <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 24 }} />,
});

/**
 * The job's ranks on the cluster's topology: the smallest view holding all its dies (its server, its super pod, or
 * the cluster), the job's dies drawn and the rest dimmed, rank numbers on hover, a diagnosis's suspects outlined red
 * and its timed-out ranks amber.
 */
export const JobTopology = memo(function JobTopology({ job, report, onShown }: { job: JobSummary; report: DiagnosisReport | null; onShown?: () => void }) {
  const t = useTranslations("jobs");
  const { theme } = useThemeControl();
  const labels = useChartLabels();
  const [selected, setSelected] = useState<string | null>(null);
  const cluster = job.cluster.slug;
  // The server decides the view that holds every die of the job (its server, its super pod, or the cluster), so
  // the page never needs all the job's ranks to choose it.
  const { level, id } = job.scope;
  // The job's dies in that view, bounded by the view (none when it draws super pods as aggregates), asked beside the
  // view itself: one after the other, they were 0.2-0.3 s of a 100,000-rank job page's time to drawn (issue 21).
  const dies = useQuery({ queryKey: jobKeys.dies(job.id), queryFn: ({ signal }) => fetchJobDies(job.id, signal) });
  // A view of aggregates is asked with the job, so each aggregate says how many of the job's dies it holds.
  const counted = job.scope.aggregated ? job.id : undefined;
  const view = useQuery({
    queryKey: counted === undefined ? topologyKeys.view(cluster, level, id) : topologyKeys.jobView(cluster, level, id, counted),
    queryFn: ({ signal }) => fetchTopologyView(cluster, level, id, signal, NO_EXPAND, counted),
  });
  const data = view.data && dies.data ? view.data : undefined;
  const { overlay, rankOfDie } = useMemo(() => jobOverlay(dies.data?.dies ?? [], report), [dies.data, report]);
  const suspects = [...overlay.dies].filter(([, mark]) => mark === "suspect").map(([die]) => die);
  const timeouts = [...overlay.dies.values()].filter((mark) => mark === "timeout").length;
  const swatch = (color: string, dashed = false) => (
    <span aria-hidden style={{ display: "inline-block", width: 14, height: 10, border: `3px ${dashed ? "dashed" : "solid"} ${color}`, verticalAlign: "middle" }} />
  );
  const failed = Boolean(view.error || dies.error);
  // What waits for the graph (the page's other sections) is not kept waiting for one that cannot be drawn.
  useEffect(() => {
    if (failed) onShown?.();
  }, [failed, onShown]);
  if (failed) return <Alert type="error" showIcon title={String((view.error ?? dies.error)?.message)} />;
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }}>
      <div style={{ height: 460, border: "1px solid rgba(128,128,128,.25)", borderRadius: 6 }} data-testid="job-topology">
        {data ? (
          <TopologyGraph
            view={data}
            selected={selected}
            ranks={rankOfDie}
            theme={theme}
            labels={labels}
            resetToken={0}
            overlay={overlay}
            ariaLabel={t("sections.topology")}
            onSelect={(node) => setSelected(node ? nodeKey(node) : null)}
            onDrill={() => undefined}
            onDrawn={onShown}
          />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 24 }} />
        )}
      </div>
      <Space wrap size={16} role="group" aria-label={t("sections.topology")}>
        <span>
          {swatch("#8c8c8c")} {t("legend.member")}
        </span>
        <span>
          {swatch(OVERLAY_COLORS.suspect)} {t("legend.suspect")}
        </span>
        <span>
          {swatch(OVERLAY_COLORS.timeout)} {t("legend.timeout")}
        </span>
        <span>
          {swatch("rgba(128,128,128,.2)", true)} {t("legend.outside")}
        </span>
      </Space>
      {/* The marks in words too: colour is never the only signal. */}
      {(suspects.length > 0 || timeouts > 0) && (
        <Typography.Text data-testid="overlay-summary" data-suspects={suspects.join(" ")}>
          {[suspects.length ? t("legend.suspectsOnGraph", { list: suspects.map((die) => (rankOfDie.has(die) ? `${die} (rank ${rankOfDie.get(die)})` : die)).join(", ") }) : null, timeouts ? t("legend.timeoutsOnGraph", { count: timeouts }) : null]
            .filter(Boolean)
            .join(" · ")}
        </Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("topologyHint")}
      </Typography.Text>
    </Space>
  );
});
