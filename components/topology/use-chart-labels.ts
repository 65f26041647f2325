"use client";

import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { escapeHtml } from "@/lib/html";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { HealthCounts, TopologyNode } from "@/lib/topology/model";
import { BAR_ORDER, type ChartLabels } from "./cell-painter";
import { remembered, rememberedPerNode } from "./remembered";

/** The graph's labels and tooltips in the reader's language (the topology page and the job page draw the same graph). */
export function useChartLabels(): ChartLabels {
  const t = useTranslations("topology");
  return useMemo<ChartLabels>(() => {
    const field = (name: string, value: string | number | null | undefined) =>
      value === null || value === undefined ? "" : `<div>${escapeHtml(t(`fields.${name}`))}: <b>${escapeHtml(String(value))}</b></div>`;
    const healthCounts = (counts: HealthCounts) =>
      BAR_ORDER.filter((tone) => counts[tone] > 0)
        .map((tone) => t(`healthCount.${tone}`, { count: counts[tone] }))
        .join(" · ");
    const plane = (node: TopologyNode) => {
      if (node.planeKind !== "parameter") return t("labels.plane", { index: node.planeIndex ?? 0, switches: node.switches ?? 0, servers: node.counts?.servers ?? 0 });
      // The parameter plane, or one of its tiers when the profile knows it is leaf/spine; else its shape is unknown.
      const ports = node.ports ?? 0;
      if (node.id.includes("/leaf:")) return t("labels.parameterLeaf", { pod: node.superPodId ?? "", ports });
      if (node.id.endsWith("/spine")) return t("labels.parameterSpine", { ports });
      return t("labels.parameterPlane", { shape: node.shape ?? "unknown", ports });
    };
    const switchLabel = (node: TopologyNode) =>
      node.switchKind === "bus-switch"
        ? t("labels.busSwitch", { plane: node.planeIndex ?? 0, index: node.switchIndex ?? 0 })
        : t("labels.nodeChip", { index: node.switchIndex ?? 0, plane: node.switchIndex ?? 0, uplinks: node.uplinks ?? 0 });
    return {
      superPod: remembered((id: string) => t("labels.superPod", { id })),
      plane: rememberedPerNode(plane),
      switch: rememberedPerNode(switchLabel),
      npu: remembered((index: number) => t("labels.npu", { index })),
      die: rememberedPerNode((node) => t("labels.die", { die: node.dieIndex ?? 0, device: node.deviceId ?? 0 })),
      dieShort: rememberedPerNode((node) => t("labels.dieShort", { device: node.deviceId ?? 0 })),
      healthCounts,
      jobCounts: (job) => t("jobCounts", job),
      counts: rememberedPerNode((node) => (node.counts ? t("countsShort", { servers: node.counts.servers, npus: node.counts.npus, dies: node.counts.dies }) : "")),
      rank: remembered((rank: number) => t("labels.rank", { rank })),
      linkCount: (kind: LinkKind, count: number) => t("labels.linkCount", { kind: t(`links.${kind}`), count }),
      linkTooltip: (kind: LinkKind, count: number, source: string, target: string) =>
        escapeHtml(`${t(`links.${kind}`)}: ${source} ↔ ${target}${count > 1 ? ` (${t("details.paths", { count })})` : ""}`),
      tooltip: (node: TopologyNode, rank: number | undefined) =>
        [
          `<div><b>${escapeHtml(`${t(`kinds.${node.kind}`)} ${node.id}`)}</b></div>`,
          node.kind === "die" ? `<div>${escapeHtml(node.label)}</div>` : "",
          field("health", t(`health.${node.health}`)),
          node.kind === "die" ? field("serverId", node.serverId) : "",
          field("hostIp", node.hostIp),
          field("deviceIp", node.deviceIp),
          field("devicePort", node.devicePort),
          field("backupDeviceIp", node.backupDeviceIp),
          field("backupDevicePort", node.backupDevicePort),
          field("hostPort", node.hostPort),
          field("superDeviceId", node.superDeviceId),
          field("rank", rank),
          field("hop", node.hop),
          node.kind === "plane" ? `<div>${escapeHtml(plane(node))}</div>` : "",
          node.kind === "switch" ? `<div>${escapeHtml(switchLabel(node))}</div>` : "",
          node.counts && node.kind !== "die" && node.kind !== "plane" && node.kind !== "switch" ? `<div>${escapeHtml(t("countsShort", node.counts))}</div>` : "",
          node.healthCounts ? `<div>${escapeHtml(healthCounts(node.healthCounts))}</div>` : "",
          node.job ? `<div><b>${escapeHtml(t("jobCounts", node.job))}</b></div>` : "",
          node.drillable ? `<div style="opacity:.7">${escapeHtml(t("hintDrill"))}</div>` : "",
        ].join(""),
    };
  }, [t]);
}
