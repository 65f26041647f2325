"use client";

import { BarChart, CustomChart } from "echarts/charts";
import { BrushComponent, DataZoomComponent, GridComponent, ToolboxComponent, TooltipComponent, VisualMapPiecewiseComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { EChart, type EChartsInstance } from "@/components/primitives/echart";
import { allocateIncrementalLayers } from "@/components/primitives/echart-layers";
import { steppedDrawing, type SteppedDrawing, type StepEnd } from "@/components/primitives/echart-steps";
import type { DensityBucket, TimelineEvent } from "@/lib/faults/api-types";
import { faultLevels, type FaultLevel } from "@/lib/faults/levels";
import type { Lane } from "@/lib/faults/timeline";
import { levelColors } from "./level-colors";

// Tree-shaken: the swimlanes are a custom series, the density strip a stacked bar series.
echarts.use([CustomChart, BarChart, GridComponent, DataZoomComponent, BrushComponent, ToolboxComponent, TooltipComponent, VisualMapPiecewiseComponent]);

/** An event's row in the chart's data: its lane, began and ended (now while open), its level's index, and 1 if open. */
const eventDimensions = ["lane", "began", "ended", "level", "open"];

/** Each level's colour as a visual of the level's index (dimension 3 of an event's row). */
const levelPieces = faultLevels.map((level, index) => ({ value: index, color: levelColors[level] }));

export interface TimelineChartLabels {
  density: string;
  tooltip: (event: TimelineEvent) => string;
  brush: string;
  clearBrush: string;
}

interface Props {
  events: TimelineEvent[];
  lanes: Lane[];
  /** Each lane's label (with its open/closed mark), as the y axis shows it and a click names it. */
  laneNames: string[];
  laneOf: Map<string, number>;
  density: { bucketMs: number; buckets: DensityBucket[] };
  from: number;
  to: number;
  now: number;
  zoom: [number, number] | null;
  brush: [number, number] | null;
  theme: "light" | "dark";
  labels: TimelineChartLabels;
  onZoom: (range: [number, number] | null) => void;
  onBrush: (range: [number, number] | null) => void;
  onToggleLane: (lane: Lane) => void;
  onSelect: (event: TimelineEvent) => void;
}

/** The latest time a Date holds: an open event's end in the chart's data. */
const OPEN_END = 8.64e15;
const laneHeight = 22;
const LANES_SHOWN = 24;
const densityHeight = 56;
/** The events' `z` (a custom series's default), which their canvases are allocated for ahead. */
const EVENTS_Z = 2;

/** The lanes' scroll bar, kept where the lanes were scrolled to when the events change (the live window's answers). */
function keptLaneScroll<T extends { startValue: number; endValue: number }>(chart: EChartsInstance, laneScroll: T): T {
  const scrolledTo = (chart.getOption() as { dataZoom?: { id?: string; startValue?: number }[] } | undefined)?.dataZoom?.find((zoom) => zoom.id === "lanes");
  return scrolledTo?.startValue === undefined ? laneScroll : { ...laneScroll, startValue: scrolledTo.startValue, endValue: scrolledTo.startValue + LANES_SHOWN - 1 };
}

/**
 * The fault timeline: swimlanes (super pod → server → die) with one bar per event coloured by level (open events run
 * to now with a dashed outline), a density strip of the whole window under it, zoom (wheel, drag, slider) and a
 * brush that selects a time range. Lane labels open and close lanes.
 */
export function TimelineChart(props: Props) {
  const chartRef = useRef<EChartsInstance | null>(null);
  const callbacks = useRef(props);
  useEffect(() => {
    callbacks.current = props;
  });
  // At most LANES_SHOWN lanes on the canvas, the others a scroll away (a slider beside them): a cluster without super
  // pods has a lane per server (2,048 at 16,384 plain NPUs), and a canvas as tall as all of them (45,000 px) took
  // seconds a frame to paint (issue 21). 24 rather than 40: Chromium copies every canvas a frame changed, whole, to
  // the compositor (Canvas2DResourceProvider::ProduceCanvasResource in a trace, without a GPU), and at 40 lanes
  // (1,046 px) that copy was 27-77 ms of each drawing frame of 60-220 ms at 524,288 NPUs; at 24 (694 px, the whole
  // chart on a laptop's screen) the frames' median fell by a quarter.
  const scrolled = props.lanes.length > LANES_SHOWN;
  const lanesHeight = Math.max(160, Math.min(props.lanes.length, LANES_SHOWN) * laneHeight);
  const height = lanesHeight + densityHeight + 110;

  const { events, laneNames, laneOf, density, from, to, now, labels } = props;
  // The page makes a new pair on every render.
  const [zoomFrom, zoomTo] = props.zoom ?? [];
  // Open events are drawn to the clock's latest reading, read when drawn: a tick of the clock moves the window and
  // the open events' ends without building the events again (set before the chart is drawn: effects run in order).
  const clock = useRef(now);
  useEffect(() => {
    clock.current = now;
  }, [now]);
  // The option in parts, each built again only when what it draws changes (issue 21: a full setOption of 5,000 events
  // took 0.4-1 s a task, once per render of the page). The events and lanes are set whole (notMerge); the window,
  // the zoom and the density strip are merged into the chart alone when only they change: the page's clock moves
  // the window every 15 s, and its answer, shared structurally by TanStack Query, keeps its events when they are the
  // same. The tooltip reads its labels when shown (callbacks).
  const eventsPart = useMemo(() => {
    // One typed array of numbers, an event a row of `eventDimensions`, coloured by the visual map: an object per event
    // with its own itemStyle made ECharts build a model per event, and setOption deep-copies arrays of arrays value by
    // value (90 ms of a 430 ms task for 5,000 events) where it copies a typed array whole. An open event's end is
    // the end of time for the data zoom's filter (it runs on, so it shows in any window after its start; the axes'
    // extent is their min and max); it is drawn to the clock's latest reading.
    const data = new Float64Array(events.length * eventDimensions.length);
    events.forEach((e, i) => data.set([laneOf.get(e.id) ?? 0, e.beganAt, e.endedAt ?? OPEN_END, faultLevels.indexOf(e.level), e.endedAt === null ? 1 : 0], i * eventDimensions.length));
    return {
      animation: false,
      grid: [
        { left: 190, right: scrolled ? 40 : 24, top: 36, height: lanesHeight },
        { left: 190, right: scrolled ? 40 : 24, height: densityHeight, bottom: 48 },
      ],
      toolbox: { right: 24, top: 0, feature: { brush: { type: ["lineX", "clear"], title: { lineX: labels.brush, clear: labels.clearBrush } } } },
      brush: { xAxisIndex: 0, brushLink: "none", throttleType: "debounce", throttleDelay: 250, outOfBrush: { colorAlpha: 0.25 } },
      tooltip: { trigger: "item", confine: true, formatter: (p: { dataIndex: number; seriesType: string }) => (p.seriesType === "custom" ? callbacks.current.labels.tooltip(events[p.dataIndex]!) : "") },
      visualMap: { type: "piecewise", show: false, seriesIndex: 0, dimension: 3, pieces: levelPieces },
      yAxis: [
        {
          type: "category",
          gridIndex: 0,
          inverse: true,
          data: laneNames,
          triggerEvent: true,
          axisLabel: { fontSize: 11, width: 180, overflow: "truncate", align: "right", fontFamily: "monospace" },
          splitLine: { show: true, lineStyle: { opacity: 0.15 } },
        },
        { type: "value", gridIndex: 1, name: labels.density, nameLocation: "middle", nameGap: 40, nameTextStyle: { fontSize: 11 }, splitNumber: 2, axisLabel: { fontSize: 10 } },
      ],
      events: {
        type: "custom",
        id: "events",
        name: "events",
        xAxisIndex: 0,
        yAxisIndex: 0,
        dimensions: eventDimensions,
        encode: { x: [1, 2], y: 0 },
        clip: true,
        z: EVENTS_Z,
        // Drawn 100 events a frame past 1,000 (ECharts' defaults: 400 past 3,000): a frame of 400 was 80-380 ms at
        // load 7-15, and frames of 200 were 52-63 ms at 524,288 NPUs, half of it the canvas's own drawing.
        progressive: 100,
        progressiveThreshold: 1000,
        data,
        renderItem: (_params: unknown, api: { value: (i: number) => number; coord: (v: [number, number]) => [number, number]; size: (v: [number, number]) => [number, number]; visual: (type: "color" | "opacity") => unknown }) => {
          const lane = api.value(0);
          const open = api.value(4) === 1;
          const start = api.coord([api.value(1), lane]);
          const end = api.coord([open ? clock.current : api.value(2), lane]);
          const band = api.size([0, 1])[1] * 0.7;
          const width = Math.max(3, end[0] - start[0]);
          return {
            type: "rect",
            shape: { x: start[0], y: start[1] - band / 2, width, height: band, r: 2 },
            // The colour and opacity the visual map and the brush gave the event, as a literal style: `api.style()`
            // (deprecated) also built a label for every event, laid out and measured on every frame.
            style: { fill: api.visual("color"), opacity: api.visual("opacity"), ...(open ? { stroke: "#000", lineDash: [3, 2], lineWidth: 1 } : {}) },
          };
        },
      },
      /** The lanes' scroll bar when they do not all fit, its events filtered to the lanes shown. */
      laneScroll: scrolled
        ? { id: "lanes", type: "slider", yAxisIndex: 0, filterMode: "filter", right: 8, width: 16, top: 36, height: lanesHeight, zoomLock: true, showDetail: false, brushSelect: false, startValue: 0, endValue: LANES_SHOWN - 1 }
        : null,
    };
  }, [events, laneNames, laneOf, labels.density, labels.brush, labels.clearBrush, scrolled, lanesHeight]);
  const densityPart = useMemo(
    () =>
      faultLevels.map((level: FaultLevel) => ({
        type: "bar" as const,
        id: `density-${level}`,
        name: level,
        stack: "density",
        xAxisIndex: 1,
        yAxisIndex: 1,
        barWidth: "100%",
        itemStyle: { color: levelColors[level] },
        data: density.buckets.filter((b) => b.counts[level]).map((b) => [b.at + density.bucketMs / 2, b.counts[level]]),
        // Always one path per level (ECharts' large mode), never an element with its label per bar: below the default
        // threshold of 400 bars each bar was an element, up to 9 × 288 of them a day (issue 21).
        large: true,
        largeThreshold: 1,
        silent: true,
      })),
    [density],
  );
  // The window, and the clock (open events end at `now`): a new reading redraws the events where they are.
  const windowPart = useMemo(
    () => ({
      xAxis: [
        { type: "time", min: from, max: to, gridIndex: 0, position: "top", splitLine: { show: true, lineStyle: { opacity: 0.3 } } },
        { type: "time", min: from, max: to, gridIndex: 1, axisLabel: { show: false }, axisTick: { show: false } },
      ],
      now,
    }),
    [from, to, now],
  );
  const zoomPart = useMemo(() => {
    const range = zoomFrom !== undefined ? { startValue: zoomFrom, endValue: zoomTo } : { start: 0, end: 100 };
    return [
      { id: "zoom-inside", type: "inside", xAxisIndex: [0, 1], filterMode: "weakFilter", ...range },
      { id: "zoom-slider", type: "slider", xAxisIndex: [0, 1], filterMode: "weakFilter", bottom: 8, height: 24, ...range },
    ];
  }, [zoomFrom, zoomTo]);
  const parts = useMemo(() => ({ events: eventsPart, density: densityPart, window: windowPart, zoom: zoomPart }), [eventsPart, densityPart, windowPart, zoomPart]);
  /** What the chart is to show, and the parts it holds (null until its first drawing). */
  const wanted = useRef({ parts, brush: props.brush });
  const shown = useRef<typeof parts | null>(null);
  /** The chart's first drawing in steps, set when the chart is created. */
  const steps = useRef<SteppedDrawing | null>(null);
  /**
   * Sets what changed: everything when the events did, else only the changed parts, merged; then the brush.
   * The first drawing is made in steps, each laid out and painted in a frame of its own once the one before is on the
   * canvas: the lanes' grid and axes; the lanes' names; the density's grid and axes, and the zoom; the toolbox and the
   * brush; the density; the canvases the events are drawn on (allocateIncrementalLayers); then the events. In one
   * step it was a task of 80-130 ms at 5,000 events (issue 21: no task over 50 ms); the names and the toolbox got steps
   * of their own when the steps were still 51-87 ms at 524,288 NPUs.
   */
  const draw = useCallback(function draw(chart: EChartsInstance) {
    const { parts: next, brush } = wanted.current;
    const before = shown.current;
    if (before === null || before.events !== next.events) {
      const { events: eventSeries, laneScroll, ...rest } = next.events;
      const option = { ...rest, xAxis: next.window.xAxis, dataZoom: [...next.zoom, ...(laneScroll ? [keptLaneScroll(chart, laneScroll)] : [])], series: [eventSeries, ...next.density] };
      if (before === null) {
        const { series, dataZoom, toolbox, brush: brushOption, ...frame } = option;
        // The lanes' grid and axes first, the density strip's with a later step: the first layout of both grids' axes
        // together was 60 ms of the first step's 80-110 at 524,288 NPUs. The lane names (each measured and truncated)
        // with a step of their own: 20 ms of the first, when 40 lanes were shown.
        const [lanesGrid, densityGrid] = frame.grid;
        const lanesAxis = frame.yAxis[0]!;
        const lazily = { lazyUpdate: true };
        const drawing: [() => void, StepEnd][] = [
          [
            () =>
              chart.setOption(
                { ...frame, grid: [lanesGrid], xAxis: frame.xAxis.slice(0, 1), yAxis: [{ ...lanesAxis, axisLabel: { ...lanesAxis.axisLabel, show: false } }] },
                { notMerge: true, lazyUpdate: true },
              ),
            "painted",
          ],
          [() => chart.setOption({ yAxis: [lanesAxis] }, lazily), "painted"],
          [() => chart.setOption({ grid: [lanesGrid, densityGrid], xAxis: frame.xAxis, yAxis: frame.yAxis, dataZoom }, lazily), "painted"],
          [() => chart.setOption({ toolbox, brush: brushOption }, lazily), "painted"],
          [() => chart.setOption({ series: [{ ...eventSeries, data: new Float64Array(0) }, ...next.density] }, lazily), "painted"],
          [() => allocateIncrementalLayers(chart, EVENTS_Z), "computed"],
          [() => chart.setOption({ series }, lazily), "painted"],
        ];
        steps.current?.start(
          (function* (): Generator<StepEnd, void> {
            for (const [run, end] of drawing) {
              run();
              yield end;
              // The parts changed while the step was painted: the drawing starts again with the latest.
              if (wanted.current.parts !== next) return draw(chart);
            }
            shown.current = next;
            draw(chart);
          })(),
        );
        return;
      }
      chart.setOption(option, { notMerge: true });
    } else if (before !== next) {
      chart.setOption({
        ...(before.window !== next.window ? { xAxis: next.window.xAxis } : {}),
        ...(before.zoom !== next.zoom ? { dataZoom: next.zoom } : {}),
        ...(before.density !== next.density ? { series: next.density } : {}),
      });
    }
    shown.current = next;
    if (brush) chart.dispatchAction({ type: "brush", areas: [{ brushType: "lineX", xAxisIndex: 0, coordRange: brush }] });
  }, []);

  useEffect(() => {
    wanted.current = { parts, brush: props.brush };
    const chart = chartRef.current;
    // Before the first drawing there is nothing to update: its steps read the latest parts themselves.
    if (chart && shown.current !== null) draw(chart);
  }, [parts, props.brush, draw]);

  return (
    <div style={{ height }} data-testid="fault-timeline">
      <EChart
        theme={props.theme}
        ariaLabel="fault timeline"
        onReady={(chart) => {
          chartRef.current = chart;
          // The first drawing in a task of its own: creating the chart measures its box (a layout of the page
          // just rendered), and setting thousands of events lays them out; together with the page's render they
          // were one task of 0.6-1 s (issue 21).
          const first = window.setTimeout(() => draw(chart), 0);
          steps.current = steppedDrawing(chart);
          chart.on("click", (params: { componentType?: string; value?: unknown; dataIndex?: number; seriesType?: string }) => {
            const current = callbacks.current;
            if (params.componentType === "yAxis") {
              const index = current.laneNames.indexOf(String(params.value));
              const lane = current.lanes[index];
              if (lane?.expandable) current.onToggleLane(lane);
            } else if (params.seriesType === "custom" && params.dataIndex !== undefined) {
              const event = current.events[params.dataIndex];
              if (event) current.onSelect(event);
            }
          });
          chart.on("datazoom", () => {
            const axis = (chart.getOption() as { dataZoom?: { startValue?: number; endValue?: number; start?: number; end?: number }[] }).dataZoom?.[0];
            const current = callbacks.current;
            if (!axis) return;
            const whole = axis.start === 0 && axis.end === 100;
            current.onZoom(whole || axis.startValue === undefined || axis.endValue === undefined ? null : [Math.round(axis.startValue), Math.round(axis.endValue)]);
          });
          chart.on("brushEnd", (raw: unknown) => {
            const range = (raw as { areas?: { coordRange?: [number, number] }[] }).areas?.[0]?.coordRange;
            callbacks.current.onBrush(range ? [Math.round(range[0]), Math.round(range[1])] : null);
          });
          chart.on("brush", (raw: unknown) => {
            const params = raw as { areas?: unknown[]; command?: string };
            if (params.command === "clear" || (params.areas && params.areas.length === 0)) callbacks.current.onBrush(null);
          });
          return () => {
            window.clearTimeout(first);
            steps.current?.dispose();
            steps.current = null;
            shown.current = null;
            chartRef.current = null;
          };
        }}
      />
    </div>
  );
}
