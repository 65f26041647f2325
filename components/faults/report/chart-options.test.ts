import { describe, expect, it } from "vitest";
import type { FaultReport, ReportBucket } from "@/lib/faults/report";
import { workStoppingLevels } from "@/lib/faults/report-url";
import { availabilityChart, eventsChart, lostChart, offendersChart, PODS_DRAWN, type ChartText } from "./chart-options";

const hour = 3_600_000;
const t0 = Date.parse("2026-11-24T00:00:00Z");
const bucket = (i: number, over: Partial<ReportBucket>): ReportBucket => ({ at: t0 + i * hour, end: t0 + (i + 1) * hour, byLevel: {}, lostByKind: {}, lostByPod: {}, recovered: 0, mttrMs: null, ...over });
const series = [bucket(0, { byLevel: { SeparateNPU: 2 }, lostByKind: { "hccl-error": hour }, lostByPod: { "0": hour } }), bucket(1, { byLevel: { NotHandleFault: 1 } })];
const text: ChartText = {
  bucketLabel: (b) => new Date(b.at).toISOString(),
  kind: (k) => `kind ${k}`,
  pod: (id) => `pod ${id}`,
  otherPods: (count) => `${count} others`,
  number: (n) => String(n),
  duration: (ms) => `${ms} ms`,
  current: "now",
  previous: "before",
};
const report = {
  from: t0,
  to: t0 + 2 * hour,
  now: t0 + 2 * hour,
  series,
  previous: { from: t0 - 2 * hour, to: t0 },
  current: { availability: [{ superPodId: "0", dies: 2, faultyDieMs: hour, availability: 0.75 }] },
} as unknown as FaultReport;

describe("trend chart options", () => {
  it("stacks events by level in the console's order and a bar opens its bucket at that level", () => {
    const chart = eventsChart(series, text);
    expect((chart.option.series as { name: string; data: number[] }[]).map((s) => [s.name, s.data])).toEqual([
      ["NotHandleFault", [0, 1]],
      ["SeparateNPU", [2, 0]],
    ]);
    expect(chart.target("SeparateNPU", 0)).toEqual({ from: t0, to: t0 + hour, level: ["SeparateNPU"] });
    expect(chart.target("SeparateNPU", 5)).toBeNull();
  });

  it("opens die-hours lost at the kind and the work-stopping levels, availability at the super pod's lane", () => {
    const lost = lostChart(series, text);
    expect((lost.option.series as { data: number[] }[])[0]!.data).toEqual([1, 0]);
    expect(lost.target("kind hccl-error", 0)).toEqual({ from: t0, to: t0 + hour, kind: ["hccl-error"], level: workStoppingLevels });
    const availability = availabilityChart(report, text);
    // Two dies for an hour, one die-hour lost: 50 % in the first hour, none lost in the second.
    expect((availability.option.series as { data: number[] }[])[0]!.data).toEqual([50, 100]);
    expect(availability.target("pod 0", 1)).toEqual({ from: t0 + hour, to: t0 + 2 * hour, level: workStoppingLevels, pod: "0" });
  });

  it("draws the least available super pods a line each and the rest as one line, their availability together", () => {
    // 13 pods of 2 dies: pod i lost i × 6 minutes in the first hour; the rest lost nothing.
    const pods = Array.from({ length: PODS_DRAWN + 3 }, (_, i) => String(i));
    const lostByPod = Object.fromEntries(pods.map((pod, i) => [pod, i * hour * 0.1]));
    const many = {
      ...report,
      series: [bucket(0, { lostByPod }), bucket(1, {})],
      current: { availability: pods.map((pod, i) => ({ superPodId: pod, dies: 2, faultyDieMs: i * hour * 0.1, availability: 1 - i * 0.05 })) },
    } as unknown as FaultReport;
    const chart = availabilityChart(many, text);
    const lines = chart.option.series as { name: string; data: number[] }[];
    expect(lines.map((line) => line.name)).toEqual([...pods.slice(3).reverse().map((pod) => `pod ${pod}`), "3 others"]);
    // The worst pod: 1.2 of 2 die-hours lost; the others together: 0 + 0.1 + 0.2 of 6 die-hours.
    expect(lines[0]!.data[0]).toBeCloseTo(40);
    expect(lines.at(-1)!.data).toEqual([95, 100]);
    expect(chart.target("3 others", 0)).toEqual({ from: t0, to: t0 + hour, level: workStoppingLevels });
    // One pod over the limit is drawn on its own line, not as "1 others".
    const eleven = { ...many, current: { availability: many.current.availability.slice(0, PODS_DRAWN + 1) } } as FaultReport;
    expect((availabilityChart(eleven, text).option.series as unknown[]).length).toBe(PODS_DRAWN + 1);
  });

  it("draws offenders top first and opens the period the clicked bar belongs to", () => {
    const offenders = [
      { key: "sp0-node01", count: 5, faultMs: 1, previous: { count: 1, faultMs: 1 }, isNew: false },
      { key: "sp0-node02", count: 3, faultMs: 1, previous: { count: 0, faultMs: 0 }, isNew: true },
    ];
    const chart = offendersChart(report, offenders, (o) => ({ target: o.key }), text);
    expect((chart.option.yAxis as { data: string[] }).data).toEqual(["sp0-node02 ★", "sp0-node01"]);
    expect(chart.target("now", 1)).toEqual({ from: t0, to: t0 + 2 * hour, target: "sp0-node01" });
    expect(chart.target("before", 0)).toEqual({ from: t0 - 2 * hour, to: t0, target: "sp0-node02" });
  });
});
