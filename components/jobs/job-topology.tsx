"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert, Skeleton, Space, Typography } from "antd";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { useThemeControl } from "@/components/providers/app-providers";
import { nodeKey } from "@/components/topology/chart-option";
import { OVERLAY_COLORS } from "@/components/topology/colors";
import { loadTopologyGraph } from "@/components/topology/load-graph";
import { fetchTopologyView } from "@/components/topology/queries";
import { topologyKeys } from "@/components/topology/query-keys";
import { useChartLabels } from "@/components/topology/use-chart-labels";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import type { TopologyLevel } from "@/lib/topology/model";
import { NO_EXPAND } from "@/lib/topology/url";
import type { JobDetail } from "./api";
import { jobOverlay, jobServers } from "./overlay";

const TopologyGraph = dynamic(() => loadTopologyGraph().then((module) => module.TopologyGraph), {
  ssr: false,
  loading: () => <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 24 }} />,
});

/**
 * The job's ranks on the cluster's topology: the smallest view holding all its dies (its server, its super pod, or
 * the cluster), the job's dies drawn and the rest dimmed, rank numbers on hover, a diagnosis's suspects outlined red
 * and its timed-out ranks amber.
 */
export function JobTopology({ job, report }: { job: JobDetail; report: DiagnosisReport | null }) {
  const t = useTranslations("jobs");
  const { theme } = useThemeControl();
  const labels = useChartLabels();
  const [selected, setSelected] = useState<string | null>(null);
  const servers = useMemo(() => jobServers(job.ranks), [job.ranks]);
  const cluster = job.cluster.slug;
  // The cluster view says which super pod each server is in.
  // Asked with the job: aggregates (super pods, racks, servers drawn as one cell) say how many of its dies they hold.
  const clusterView = useQuery({
    queryKey: topologyKeys.jobView(cluster, "cluster", null, job.id),
    queryFn: ({ signal }) => fetchTopologyView(cluster, "cluster", null, signal, NO_EXPAND, job.id),
    enabled: servers.length > 1,
  });
  const target = useMemo((): { level: TopologyLevel; id: string | null } | null => {
    if (servers.length === 1) return { level: "server", id: servers[0]! };
    if (servers.length === 0) return { level: "cluster", id: null };
    if (!clusterView.data) return null;
    // Its servers drawn one by one, or the aggregated pods that hold its dies.
    const pods = new Set(clusterView.data.nodes.filter((n) => (n.kind === "server" && servers.includes(n.id)) || (n.kind === "superpod" && n.aggregated && n.job)).map((n) => n.superPodId ?? null));
    const [pod] = [...pods];
    return pods.size === 1 && pod ? { level: "superpod", id: pod } : { level: "cluster", id: null };
  }, [servers, clusterView.data]);
  const view = useQuery({
    queryKey: topologyKeys.jobView(cluster, target?.level ?? "cluster", target?.id ?? null, job.id),
    queryFn: ({ signal }) => fetchTopologyView(cluster, target!.level, target!.id, signal, NO_EXPAND, job.id),
    enabled: target !== null && !(target.level === "cluster" && clusterView.data),
  });
  const data = target?.level === "cluster" && clusterView.data ? clusterView.data : view.data;
  const { overlay, rankOfDie } = useMemo(() => jobOverlay(job.ranks, report), [job.ranks, report]);
  const suspects = [...overlay.dies].filter(([, mark]) => mark === "suspect").map(([die]) => die);
  const timeouts = [...overlay.dies.values()].filter((mark) => mark === "timeout").length;
  const swatch = (color: string, dashed = false) => (
    <span aria-hidden style={{ display: "inline-block", width: 14, height: 10, border: `3px ${dashed ? "dashed" : "solid"} ${color}`, verticalAlign: "middle" }} />
  );
  if (view.error || clusterView.error) return <Alert type="error" showIcon title={String((view.error ?? clusterView.error)?.message)} />;
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
}
