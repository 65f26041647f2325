"use client";

import { Typography } from "antd";
import { useTranslations } from "next-intl";
import type { TopologyNode, TopologyView } from "@/lib/topology/model";
import { HEALTH_COLORS } from "./colors";
import { HEALTH_ICONS } from "./legend";
import { useChartLabels } from "./use-chart-labels";

/** How many aggregates the list names; the rest are counted. */
const SHOWN = 8;

/** The aggregates of a view with faulty or degraded dies, worst first: most faulty, then most degraded, then by id. */
export function needingAttention(view: TopologyView): TopologyNode[] {
  return view.nodes
    .filter((node) => node.aggregated && node.healthCounts && node.healthCounts.faulty + node.healthCounts.degraded > 0)
    .sort((a, b) => b.healthCounts!.faulty - a.healthCounts!.faulty || b.healthCounts!.degraded - a.healthCounts!.degraded || a.id.localeCompare(b.id));
}

/**
 * Beside a view of aggregates, the ones with trouble in words (colour is never the only signal): a super pod with
 * 1 faulty die of 131,072 is named here with its count, and opens with a click.
 */
export function AttentionList({ view, theme, onOpen }: { view: TopologyView; theme: "light" | "dark"; onOpen: (node: TopologyNode) => void }) {
  const t = useTranslations("topology.attention");
  const labels = useChartLabels();
  if (!view.nodes.some((node) => node.aggregated)) return null;
  const nodes = needingAttention(view);
  return (
    <section aria-label={t("title")} data-testid="attention">
      <Typography.Text type="secondary">{nodes.length === 0 ? t("none", { count: view.nodes.filter((n) => n.aggregated).length }) : t("title")}</Typography.Text>
      {nodes.length > 0 && (
        <ul style={{ listStyle: "none", margin: "4px 0 0", padding: 0, display: "flex", flexWrap: "wrap", gap: "4px 16px" }}>
          {nodes.slice(0, SHOWN).map((node) => (
            <li key={node.id}>
              <a
                href="#"
                onClick={(event) => {
                  event.preventDefault();
                  onOpen(node);
                }}
              >
                <span aria-hidden style={{ color: HEALTH_COLORS[theme][node.health], marginRight: 4 }}>
                  {HEALTH_ICONS[node.health]}
                </span>
                {node.kind === "superpod" ? labels.superPod(node.id) : node.id}: {labels.healthCounts(node.healthCounts!)}
              </a>
            </li>
          ))}
          {nodes.length > SHOWN && <li>{t("more", { count: nodes.length - SHOWN })}</li>}
        </ul>
      )}
    </section>
  );
}
