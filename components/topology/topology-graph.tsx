"use client";

import { useCallback, useEffect, useRef } from "react";
import { EChart, type EChartsInstance } from "@/components/primitives/echart";
import type { TopologyNode, TopologyView } from "@/lib/topology/model";
import { chartOption, fitScale, levelOfDetail, parseNodeKey, type ChartLabels } from "./chart-option";

interface Props {
  view: TopologyView;
  selected: string | null;
  ranks: Map<string, number> | undefined;
  theme: "light" | "dark";
  labels: ChartLabels;
  ariaLabel: string;
  onSelect: (node: TopologyNode | null) => void;
  onDrill: (node: TopologyNode) => void;
  /** Bumped to bring the view back to its initial fit. */
  resetToken: number;
}

/** Detail changes in steps, so a roam only redraws when it crosses one. */
function detailSignature(view: TopologyView, pixelsPerUnit: number): string {
  return JSON.stringify(levelOfDetail(view, pixelsPerUnit));
}

/**
 * The topology canvas. Positions come laid out from the API; this component only paints them (ECharts graph series,
 * canvas renderer), keeps the zoom across updates, and switches the level of detail as the operator zooms.
 * `performance.mark("topology:drawn")` is set when a view has been drawn completely (the benchmark reads it).
 */
export function TopologyGraph({ view, selected, ranks, theme, labels, ariaLabel, onSelect, onDrill, resetToken }: Props) {
  const chartRef = useRef<EChartsInstance | null>(null);
  const zoom = useRef(1);
  const signature = useRef("");
  const latest = useRef({ view, selected, ranks, theme, labels, onSelect, onDrill });
  useEffect(() => {
    latest.current = { view, selected, ranks, theme, labels, onSelect, onDrill };
  });

  const draw = useCallback((chart: EChartsInstance, replace: boolean) => {
    const { view, selected, ranks, theme, labels } = latest.current;
    const size = { width: chart.getWidth(), height: chart.getHeight() };
    signature.current = detailSignature(view, fitScale(view.bounds, size) * zoom.current);
    const option = chartOption({ view, size, zoom: zoom.current, theme, selected, ranks, labels });
    chart.setOption(option, { notMerge: replace, lazyUpdate: false });
    if (!replace) return;
    // A fresh view keeps neither the previous pan nor zoom.
  }, []);

  const onReady = useCallback(
    (chart: EChartsInstance) => {
      chartRef.current = chart;
      chart.on("finished", () => {
        if (chart.getDom().dataset.drawn !== "true") {
          chart.getDom().dataset.drawn = "true";
          performance.mark("topology:drawn");
        }
      });
      chart.on("click", (params) => {
        const key = (params.data as { id?: string } | undefined)?.id;
        const parsed = key ? parseNodeKey(key) : null;
        const node = parsed ? latest.current.view.nodes.find((n) => n.kind === parsed.kind && n.id === parsed.id) : undefined;
        latest.current.onSelect(node ?? null);
      });
      chart.on("dblclick", (params) => {
        const key = (params.data as { id?: string } | undefined)?.id;
        const parsed = key ? parseNodeKey(key) : null;
        const node = parsed ? latest.current.view.nodes.find((n) => n.kind === parsed.kind && n.id === parsed.id) : undefined;
        if (node?.drillable) latest.current.onDrill(node);
      });
      chart.getZr().on("click", (event) => {
        if (!event.target) latest.current.onSelect(null);
      });
      chart.on("graphroam", () => {
        const series = (chart.getOption() as { series?: { zoom?: number }[] }).series?.[0];
        zoom.current = series?.zoom ?? 1;
        const { view } = latest.current;
        const size = { width: chart.getWidth(), height: chart.getHeight() };
        if (detailSignature(view, fitScale(view.bounds, size) * zoom.current) !== signature.current) {
          // Keep the pan: only the data (and so the detail) changes.
          const center = (chart.getOption() as { series?: { center?: unknown }[] }).series?.[0]?.center;
          draw(chart, false);
          if (center) chart.setOption({ series: [{ center }] });
        }
      });
      draw(chart, true);
    },
    [draw],
  );

  // A new view (level or id) starts from the fit; other changes keep the operator's zoom and pan.
  const viewKey = `${view.cluster.id}|${view.level}|${view.id}|${view.cluster.inventoryRevision}|${resetToken}`;
  const drawnKey = useRef(viewKey);
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    if (drawnKey.current !== viewKey) {
      drawnKey.current = viewKey;
      zoom.current = 1;
      chart.getDom().dataset.drawn = "false";
      draw(chart, true);
    } else {
      draw(chart, false);
    }
  }, [viewKey, selected, ranks, labels, draw]);

  return (
    <EChart
      key={theme}
      theme={theme}
      ariaLabel={ariaLabel}
      onReady={onReady}
      onResize={(chart) => draw(chart, false)}
      style={{ minHeight: 420 }}
    />
  );
}
