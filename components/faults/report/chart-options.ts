import { faultLevels, type FaultLevel } from "@/lib/faults/levels";
import { faultKinds, type FaultKind } from "@/lib/faults/model";
import { availabilityOf, type FaultReport, type Offender, type ReportBucket } from "@/lib/faults/report";
import { workStoppingLevels, type TimelineTarget } from "@/lib/faults/report-url";
import { kindColors, levelColors } from "../level-colors";

/**
 * ECharts options for the report's trend charts, and for each one what a click on an element selects (the timeline
 * of that bucket or offender, filtered to it). Colours are the console's: levels by their health colour, kinds from
 * a categorical palette; decal patterns repeat the series for colour-blind readers and black-and-white print.
 */
export interface ChartText {
  bucketLabel: (b: ReportBucket) => string;
  kind: (kind: FaultKind) => string;
  pod: (id: string) => string;
  /** The line of the super pods not drawn one by one (see PODS_DRAWN). */
  otherPods: (count: number) => string;
  number: (n: number, digits?: number) => string;
  duration: (ms: number) => string;
  current: string;
  previous: string;
}

export interface TrendChart {
  option: Record<string, unknown>;
  /** The timeline a click on (series, data index) opens; null when the element selects nothing. */
  target: (seriesName: string, dataIndex: number) => TimelineTarget | null;
}

const base = (text: ChartText, series: ReportBucket[]) => ({
  animation: false,
  backgroundColor: "transparent",
  aria: { enabled: true, decal: { show: true } },
  grid: { left: 56, right: 16, top: 36, bottom: 40 },
  legend: { type: "scroll", top: 0 },
  tooltip: { trigger: "axis", confine: true },
  xAxis: { type: "category", data: series.map(text.bucketLabel), axisLabel: { hideOverlap: true } },
});

const bucketSpan = (series: ReportBucket[], i: number) => ({ from: series[i]!.at, to: series[i]!.end });

export function eventsChart(series: ReportBucket[], text: ChartText): TrendChart {
  const levels = faultLevels.filter((level) => series.some((b) => b.byLevel[level]));
  return {
    option: {
      ...base(text, series),
      yAxis: { type: "value", minInterval: 1 },
      series: levels.map((level) => ({
        type: "bar",
        name: level,
        stack: "events",
        itemStyle: { color: levelColors[level] },
        data: series.map((b) => b.byLevel[level] ?? 0),
      })),
    },
    target: (name, i) => (series[i] ? { ...bucketSpan(series, i), level: [name as FaultLevel] } : null),
  };
}

/**
 * Super pods drawn a line each, the least available first; the rest are one line, their availability together. An
 * Atlas 950 SuperCluster has 64 super pods: a line and a legend entry each were a chart no one could read, and its
 * first drawing a task of 150 ms (issue 21).
 */
export const PODS_DRAWN = 10;

export function availabilityChart(report: FaultReport, text: ChartText): TrendChart {
  const { series, current, now } = report;
  const sorted = [...current.availability].sort((a, b) => a.availability - b.availability);
  const drawn = sorted.length > PODS_DRAWN + 1 ? sorted.slice(0, PODS_DRAWN) : sorted;
  const rest = sorted.slice(drawn.length);
  const pods = drawn.map((a) => ({ keys: [a.superPodId ?? ""], name: text.pod(a.superPodId ?? ""), dies: a.dies, pod: a.superPodId ?? "" }));
  if (rest.length) pods.push({ keys: rest.map((a) => a.superPodId ?? ""), name: text.otherPods(rest.length), dies: rest.reduce((sum, a) => sum + a.dies, 0), pod: "" });
  const percent = (p: (typeof pods)[number], b: ReportBucket) => {
    const a = availabilityOf(p.keys.reduce((sum, key) => sum + (b.lostByPod[key] ?? 0), 0), p.dies, b.at, b.end, now);
    return a === null ? null : a * 100;
  };
  const values = pods.flatMap((p) => series.map((b) => percent(p, b))).filter((v): v is number => v !== null);
  const lowest = values.length ? Math.min(...values) : 100;
  return {
    option: {
      ...base(text, series),
      tooltip: { trigger: "axis", confine: true, valueFormatter: (v: number | null) => (v === null ? "—" : `${text.number(v, 3)} %`) },
      yAxis: { type: "value", max: 100, min: Math.max(0, Math.floor(lowest - 1)), axisLabel: { formatter: "{value} %" } },
      series: pods.map((p) => ({ type: "line", name: p.name, showSymbol: series.length <= 60, data: series.map((b) => percent(p, b)) })),
    },
    // A pod's line opens its lane; the others' line, the cluster's work-stopping faults of that bucket.
    target: (name, i) => {
      const pod = pods.find((p) => p.name === name);
      return series[i] && pod ? { ...bucketSpan(series, i), level: workStoppingLevels, ...(pod.pod ? { pod: pod.pod } : {}) } : null;
    },
  };
}

export function mttrChart(series: ReportBucket[], text: ChartText): TrendChart {
  return {
    option: {
      ...base(text, series),
      legend: { show: false },
      tooltip: { trigger: "axis", confine: true, valueFormatter: (v: number | null) => (v === null ? "—" : text.duration(v * 60_000)) },
      yAxis: { type: "value", axisLabel: { formatter: "{value} min" } },
      series: [{ type: "line", name: "MTTR", connectNulls: false, itemStyle: { color: "#1677ff" }, data: series.map((b) => (b.mttrMs === null ? null : b.mttrMs / 60_000)) }],
    },
    target: (_name, i) => (series[i] ? bucketSpan(series, i) : null),
  };
}

export function lostChart(series: ReportBucket[], text: ChartText): TrendChart {
  const kinds = faultKinds.filter((kind) => series.some((b) => b.lostByKind[kind]));
  return {
    option: {
      ...base(text, series),
      tooltip: { trigger: "axis", confine: true, valueFormatter: (v: number) => text.number(v, 2) },
      yAxis: { type: "value" },
      series: kinds.map((kind) => ({
        type: "bar",
        name: text.kind(kind),
        stack: "lost",
        itemStyle: { color: kindColors[kind] },
        data: series.map((b) => (b.lostByKind[kind] ?? 0) / 3_600_000),
      })),
    },
    target: (name, i) => {
      const kind = kinds.find((k) => text.kind(k) === name);
      return series[i] && kind ? { ...bucketSpan(series, i), kind: [kind], level: workStoppingLevels } : null;
    },
  };
}

/** One offender list as horizontal bars: this period's events and, compared, the previous period's. */
export function offendersChart(report: FaultReport, offenders: Offender[], select: (o: Offender) => Partial<TimelineTarget>, text: ChartText): TrendChart {
  const list = [...offenders].reverse();
  return {
    option: {
      animation: false,
      backgroundColor: "transparent",
      aria: { enabled: true, decal: { show: true } },
      grid: { left: 8, right: 24, top: 28, bottom: 8, containLabel: true },
      legend: { top: 0 },
      tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, confine: true },
      xAxis: { type: "value", minInterval: 1 },
      yAxis: { type: "category", data: list.map((o) => (o.isNew ? `${o.key} ★` : o.key)) },
      series: [
        { type: "bar", name: text.current, itemStyle: { color: "#f5222d" }, data: list.map((o) => o.count) },
        ...(report.previous ? [{ type: "bar", name: text.previous, itemStyle: { color: "#bfbfbf" }, data: list.map((o) => o.previous?.count ?? 0) }] : []),
      ],
    },
    target: (name, i) => {
      const o = list[i];
      if (!o) return null;
      const span = name === text.previous && report.previous ? { from: report.previous.from, to: report.previous.to } : { from: report.from, to: report.to };
      return { ...span, ...select(o) };
    },
  };
}
