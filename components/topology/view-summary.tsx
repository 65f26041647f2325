"use client";

import { useIsFetching, type QueryKey } from "@tanstack/react-query";
import { Typography } from "antd";
import { useTranslations } from "next-intl";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { TopologyView } from "@/lib/topology/model";

/** What a view's aggregates are: rows of racks, racks, super pods (the cluster's) or servers (a super pod's). */
function aggregatesKey(view: TopologyView) {
  if (view.nodes.some((n) => n.kind === "row")) return "summary.aggregatedRows";
  if (view.nodes.some((n) => n.kind === "rack")) return "summary.aggregatedRacks";
  return view.level === "cluster" ? "summary.aggregatedPods" : "summary.aggregatedServers";
}

/**
 * The line above the graph that says what the view draws: its level, the aggregates, dies, bus planes, the parameter
 * plane and the links of each kind ("Server · 16 dies · 7 bus planes of 56 switches · …"), and whether the view's
 * query (`queryKey`) is fetching: watched here, so a refresh's start renders this line, not the whole page.
 */
export function ViewSummary({ view, queryKey }: { view: TopologyView | undefined; queryKey: QueryKey }) {
  const t = useTranslations("topology");
  const fetching = useIsFetching({ queryKey, exact: true }) > 0;
  let text = "\u00a0";
  if (view) {
    const drawnDies = view.nodes.filter((n) => n.kind === "die").length;
    const linkCounts = new Map<LinkKind, number>();
    for (const link of view.links) linkCounts.set(link.kind, (linkCounts.get(link.kind) ?? 0) + 1);
    const planes = view.nodes.filter((n) => n.kind === "plane" && n.planeKind === "bus");
    // The parameter plane drawn whole, or its spine when the profile knows it is leaf/spine.
    const parameter = view.nodes.find((n) => n.kind === "plane" && n.planeKind === "parameter" && !n.id.includes("/leaf:"));
    const aggregated = view.nodes.filter((n) => n.aggregated).length;
    text = [
      t(`levels.${view.level}`),
      aggregated > 0 ? t(aggregatesKey(view), { count: aggregated }) : null,
      drawnDies > 0 ? t("summary.dies", { count: drawnDies }) : null,
      planes.length > 0 ? t("summary.planes", { count: planes.length, switches: planes.reduce((n, p) => n + (p.switches ?? 0), 0) }) : null,
      parameter ? t("summary.parameter", { shape: parameter.shape ?? t("details.shapeUnknown") }) : null,
      ...[...linkCounts.entries()].map(([kind, count]) => t("summary.links", { count, kind: t(`links.${kind}`) })),
    ]
      .filter(Boolean)
      .join(" · ");
  }
  return (
    <Typography.Text type="secondary" data-testid="view-summary">
      {text}
      {fetching && view ? ` · ${t("loading")}` : ""}
    </Typography.Text>
  );
}
