"use client";

import { CustomChart } from "echarts/charts";
import { DataZoomInsideComponent, GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { useCallback, useEffect, useRef } from "react";
import { EChart, type EChartsInstance } from "@/components/primitives/echart";
import { allocateIncrementalLayers } from "@/components/primitives/echart-layers";
import { steppedDrawing, type SteppedDrawing, type StepEnd } from "@/components/primitives/echart-steps";
import type { TopologyNode, TopologyView } from "@/lib/topology/model";
import type { ChartLabels, ChartOverlay } from "./cell-painter";
import { cellsDrawnProgressively, chartOption, firstLabelStyles, LINKS_ZLEVEL, SELECTION_STYLE, selectionOutline, type labelStyle, type ZoomWindow } from "./chart-option";

// Tree-shaken ECharts: rects and links (custom series) on hidden axes that zoom and pan, tooltips.
echarts.use([CustomChart, GridComponent, DataZoomInsideComponent, TooltipComponent]);

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
  /** A job drawn over the view (the job page). */
  overlay?: ChartOverlay | undefined;
  /** Called each time a new view has been drawn completely (see `data-drawn`). */
  onDrawn?: () => void;
}

/** The operator's current zoom and pan, to keep across updates of the same view. */
function currentWindow(chart: EChartsInstance): ZoomWindow | undefined {
  const zooms = (chart.getOption() as { dataZoom?: { id?: string; start?: number; end?: number }[] }).dataZoom ?? [];
  const range = (id: string): [number, number] | undefined => {
    const zoom = zooms.find((z) => z.id === id);
    return zoom?.start === undefined || zoom.end === undefined ? undefined : [zoom.start, zoom.end];
  };
  const x = range("zoom-x");
  const y = range("zoom-y");
  return x && y ? { x, y } : undefined;
}

const LONG_SAMPLE = "M".repeat(40);

/**
 * Has ECharts measure a label font before the cells use it (see firstLabelStyles): a text in that style cut short,
 * laid out off the canvas, measures the font's glyphs into ECharts' own cache.
 */
function measureLabelFont(style: ReturnType<typeof labelStyle>): void {
  const text = style.rich ? `{b|${LONG_SAMPLE}}\n${LONG_SAMPLE}` : LONG_SAMPLE;
  new echarts.graphic.Text({ style: { ...style, text, width: 8 } }).getBoundingRect();
}

/**
 * Has the canvases a view draws on allocated before the frame that first draws on them (a new canvas's first drawing
 * took 8–10 ms, each in the frame of a view's first cells; issue 21): the links' canvas, and the cells' own (their
 * incremental layer when drawn progressively, see allocateIncrementalLayers).
 */
function allocateCanvases(chart: EChartsInstance, progressive: boolean): void {
  const painter = chart.getZr().painter as unknown as { getType(): string; getLayer?(zlevel: number): { ctx?: CanvasRenderingContext2D } };
  if (painter.getType() !== "canvas") return;
  painter.getLayer?.(LINKS_ZLEVEL).ctx?.clearRect(0, 0, 1, 1);
  if (progressive) allocateIncrementalLayers(chart);
  else painter.getLayer?.(0).ctx?.clearRect(0, 0, 1, 1);
}

/** What a drawing is made of: a change in any of them draws again; a new selection only moves the outline. */
interface DrawnFrom {
  view: TopologyView;
  viewKey: string;
  ranks: Map<string, number> | undefined;
  labels: ChartLabels;
  overlay: ChartOverlay | undefined;
}
const drawnChanged = (drawn: DrawnFrom, now: DrawnFrom) =>
  drawn.viewKey !== now.viewKey || drawn.view !== now.view || drawn.ranks !== now.ranks || drawn.labels !== now.labels || drawn.overlay !== now.overlay;

/**
 * The topology canvas. Positions come laid out from the API; this component only paints them (see chartOption),
 * keeps the zoom across updates of a view, and starts a new view from the fit. Drawing starts in a task of its own
 * after hydration and goes on progressively, so neither blocks input for long.
 * `data-drawn="true"` and `performance.mark("topology:drawn")` are set when a view has been drawn completely
 * (ECharts' `finished`: after the last progressive chunk); the end-to-end tests and the benchmark read them.
 */
export function TopologyGraph({ view, selected, ranks, theme, labels, ariaLabel, onSelect, onDrill, resetToken, overlay, onDrawn }: Props) {
  // A new view (level or id) starts from the fit; other changes keep the operator's zoom and pan.
  const around = view.neighbourhood;
  const viewKey = `${view.cluster.id}|${view.level}|${view.id}|${view.cluster.inventoryRevision}|${resetToken}|${around ? `${around.hops}|${around.from}|${around.kinds.join()}` : ""}`;
  const chartRef = useRef<EChartsInstance | null>(null);
  const latest = useRef({ view, viewKey, selected, ranks, theme, labels, onSelect, onDrill, overlay, onDrawn });
  useEffect(() => {
    latest.current = { view, viewKey, selected, ranks, theme, labels, onSelect, onDrill, overlay, onDrawn };
  });
  /** What the canvas shows now; null until the first drawing. */
  const drawn = useRef<DrawnFrom | null>(null);
  const outline = useRef<InstanceType<typeof echarts.graphic.Rect> | null>(null);
  /** Where the pointer is on the canvas, for a link's tooltip (see ChartInput.pointer). */
  const pointerAt = useRef<[number, number] | null>(null);

  /** Puts the selection's outline over the chart, where the selected node is drawn now. */
  const placeOutline = useCallback((chart: EChartsInstance) => {
    const { view, selected } = latest.current;
    const rect = selectionOutline(view, selected, (point) => chart.convertToPixel({ gridIndex: 0 }, point) as number[]);
    if (!rect) {
      outline.current?.hide();
      return;
    }
    if (!outline.current) {
      outline.current = new echarts.graphic.Rect({ silent: true, zlevel: LINKS_ZLEVEL, z: 1000, style: SELECTION_STYLE });
      chart.getZr().add(outline.current);
    }
    outline.current.setShape(rect);
    outline.current.show();
  }, []);

  /** The chart's drawings in steps (a new view's), set when the chart is created. */
  const steps = useRef<SteppedDrawing | null>(null);

  const draw = useCallback(
    function draw(chart: EChartsInstance) {
      const current = latest.current;
      const { view, viewKey, ranks, theme, labels, overlay } = current;
      const fresh = drawn.current?.viewKey !== viewKey;
      const size = { width: chart.getWidth(), height: chart.getHeight() };
      const pointer = () => (pointerAt.current ? { at: pointerAt.current, toPixel: (point: [number, number]) => chart.convertToPixel({ gridIndex: 0 }, point) as number[] } : null);
      const option = chartOption({ view, size, window: fresh ? undefined : currentWindow(chart), theme, ranks, labels, overlay, pointer });
      if (!fresh) {
        drawn.current = { view, viewKey, ranks, labels, overlay };
        chart.setOption(option, { lazyUpdate: false });
        placeOutline(chart);
        return;
      }
      // A new view is drawn in steps, each in a task shorter than input may wait for (issue 6: 50 ms): the frame
      // (axes, zoom, an empty canvas) is merged into ECharts' model now and laid out and painted in the next animation
      // frame; once painted, the cells and the links between them are merged in a task of their own, painted from the
      // frame after, progressively. Links come with the cells: drawn first, they showed between boxes not there yet.
      // Before the cells, the canvases they and the links are drawn on are allocated, and each font their labels use at
      // the fit is measured, each in a task of its own.
      chart.getDom().dataset.drawn = "false";
      drawn.current = null;
      // What it draws changed while a step was painted: the drawing starts again with the latest. Not on any render
      // of the page (a new selection, new callbacks): each was a drawing started again from its first step.
      const superseded = () => drawnChanged(current, latest.current);
      steps.current?.start(
        (function* (): Generator<StepEnd, void> {
          chart.setOption({ ...option, series: [] }, { notMerge: true, lazyUpdate: true });
          yield "painted";
          if (superseded()) return draw(chart);
          allocateCanvases(chart, cellsDrawnProgressively(view));
          const fonts = firstLabelStyles({ view, size, theme, ranks, labels, overlay });
          yield "computed";
          for (const font of fonts) {
            if (superseded()) return draw(chart);
            measureLabelFont(font);
            yield "computed";
          }
          if (superseded()) return draw(chart);
          drawn.current = { view, viewKey, ranks, labels, overlay };
          chart.setOption({ series: option.series }, { lazyUpdate: true });
          yield "finishing";
          chart.getDom().dataset.drawn = "true";
          performance.mark("topology:drawn");
          placeOutline(chart);
          latest.current.onDrawn?.();
        })(),
      );
    },
    [placeOutline],
  );

  const nodeAt = (params: { seriesId?: string; dataIndex?: number }) =>
    params.seriesId === "cells" && params.dataIndex !== undefined ? latest.current.view.nodes[params.dataIndex] : undefined;

  const onReady = useCallback(
    (chart: EChartsInstance) => {
      chartRef.current = chart;
      drawn.current = null;
      outline.current = null;
      steps.current = steppedDrawing(chart);
      chart.on("click", (params) => latest.current.onSelect(nodeAt(params) ?? null));
      chart.on("dblclick", (params) => {
        const node = nodeAt(params);
        const { view } = latest.current;
        // A die or NPU drawn inside a server of a super pod opens that server.
        const target =
          node && !node.drillable && view.level !== "server" ? view.nodes.find((n) => n.kind === "server" && n.id === node.serverId) : node;
        if (target?.drillable) latest.current.onDrill(target);
      });
      chart.on("datazoom", () => placeOutline(chart));
      // Registered before the chart's first option, so before the tooltip's own listener: a tooltip reads it.
      chart.getZr().on("mousemove", (event) => {
        pointerAt.current = [event.offsetX, event.offsetY];
      });
      chart.getZr().on("globalout", () => {
        pointerAt.current = null;
      });
      chart.getZr().on("click", (event) => {
        if (!event.target) latest.current.onSelect(null);
      });
      // Not inside the hydration's commit: the first drawing is a task of its own.
      const first = setTimeout(() => draw(chart), 0);
      return () => {
        clearTimeout(first);
        steps.current?.dispose();
        steps.current = null;
        chartRef.current = null;
      };
    },
    [draw, placeOutline],
  );

  useEffect(() => {
    const chart = chartRef.current;
    const shown = drawn.current;
    // Before the first drawing there is nothing to update: it reads the latest props itself.
    if (!chart || !shown) return;
    if (drawnChanged(shown, { view, viewKey, ranks, labels, overlay })) draw(chart);
    else placeOutline(chart);
  }, [viewKey, view, selected, ranks, labels, overlay, draw, placeOutline]);

  return <EChart key={theme} theme={theme} ariaLabel={ariaLabel} onReady={onReady} onResize={(chart) => (drawn.current || steps.current?.busy) && draw(chart)} style={{ minHeight: 420 }} />;
}
