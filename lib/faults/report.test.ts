import { describe, expect, it } from "vitest";
import type { FaultStatistics } from "./api-types";
import { availabilityOf, compareOffenders, delta, improves, periodTotals, previousPeriod, reportBuckets, reportDeltas, reportGrain } from "./report";
import { reportCsv } from "./report-csv";
import { reportSummary, serverConcentration, signedNumber } from "./report-summary";

const hour = 3_600_000;
const day = 24 * hour;
const t0 = Date.parse("2026-11-01T00:00:00Z");

const stats = (over: Partial<FaultStatistics>): FaultStatistics => ({
  from: t0,
  to: t0 + 7 * day,
  byKind: [],
  byLevel: [],
  mttrMs: null,
  recovered: 0,
  open: 0,
  topServers: [],
  topDies: [],
  topCodes: [],
  availability: [],
  ...over,
});

describe("report computations", () => {
  it("splits a period into UTC hours up to three days and days beyond, clipping the edges", () => {
    expect(reportGrain(t0, t0 + 3 * day)).toBe(hour);
    expect(reportGrain(t0, t0 + 3 * day + 1)).toBe(day);
    const from = t0 + 5 * hour + 17;
    expect(reportBuckets(from, t0 + 2 * day + hour, day)).toEqual([
      { at: from, end: t0 + day },
      { at: t0 + day, end: t0 + 2 * day },
      { at: t0 + 2 * day, end: t0 + 2 * day + hour },
    ]);
    expect(reportBuckets(t0, t0, hour)).toEqual([]);
    expect(previousPeriod(t0 + day, t0 + 3 * day)).toEqual({ from: t0 - day, to: t0 + day });
  });

  it("gives availability over the period so far, none before it begins", () => {
    expect(availabilityOf(hour, 10, t0, t0 + day, t0 + day)).toBeCloseTo(1 - 1 / 240, 12);
    // Half the period has passed: the same loss weighs twice as much.
    expect(availabilityOf(hour, 10, t0, t0 + day, t0 + 12 * hour)).toBeCloseTo(1 - 1 / 120, 12);
    expect(availabilityOf(hour, 10, t0, t0 + day, t0 - 1)).toBeNull();
    expect(availabilityOf(1000 * day, 1, t0, t0 + day, t0 + day)).toBe(0);
  });

  it("computes exact deltas, per level and per super pod, and says which way is better", () => {
    const pods = (a: number) => [{ superPodId: "0", dies: 10, faultyDieMs: (1 - a) * 10 * 7 * day, availability: a }];
    const current = periodTotals(stats({ byLevel: [{ level: "SeparateNPU", count: 12 }], mttrMs: 90_000, availability: pods(0.99) }), new Map(), t0 + 7 * day);
    const previous = periodTotals(
      stats({ byLevel: [{ level: "SeparateNPU", count: 8 }, { level: "NotHandleFault", count: 4 }], mttrMs: 60_000, availability: pods(0.995) }),
      new Map(),
      t0 + 7 * day,
    );
    const d = reportDeltas(current, previous);
    expect(d.events).toEqual({ current: 12, previous: 12, change: 0, ratio: 0 });
    expect(d.mttrMs).toEqual({ current: 90_000, previous: 60_000, change: 30_000, ratio: 0.5 });
    expect(d.byLevel).toEqual([
      { level: "SeparateNPU", delta: delta(12, 8) },
      { level: "NotHandleFault", delta: delta(0, 4) },
    ]);
    expect(d.availabilityPts.change).toBeCloseTo(-0.5, 9);
    expect(d.availabilityByPod[0]!.delta.change).toBeCloseTo(-0.5, 9);
    expect(delta(5, 0).ratio).toBeNull();
    expect(improves("availabilityPts", d.availabilityPts.change)).toBe(false);
    expect(improves("mttrMs", -1)).toBe(true);
    expect(improves("events", 0)).toBeNull();
  });

  it("marks offenders new when the previous period had none of them", () => {
    const now = [{ key: "a", count: 3, faultMs: 10 }, { key: "b", count: 1, faultMs: 5 }];
    expect(compareOffenders(now, [{ key: "a", count: 7, faultMs: 70 }])).toEqual([
      { key: "a", count: 3, faultMs: 10, previous: { count: 7, faultMs: 70 }, isNew: false },
      { key: "b", count: 1, faultMs: 5, previous: { count: 0, faultMs: 0 }, isNew: true },
    ]);
    expect(compareOffenders(now, null)[1]).toEqual({ key: "b", count: 1, faultMs: 5, previous: null, isNew: false });
  });

  it("finds the few servers holding half the fault time", () => {
    expect(serverConcentration([{ faultMs: 30 }, { faultMs: 25 }, { faultMs: 5 }], 100)).toEqual({ servers: 2, share: 0.55 });
    expect(serverConcentration([{ faultMs: 10 }, { faultMs: 10 }], 100)).toEqual({ servers: 2, share: 0.2 });
    expect(serverConcentration([], 0)).toBeNull();
  });
});

describe("the report's summary and CSV", () => {
  const current = periodTotals(
    stats({
      byLevel: [{ level: "SeparateNPU", count: 1234 }],
      mttrMs: 200_000,
      availability: [{ superPodId: "0", dies: 100, faultyDieMs: 0.008 * 100 * 7 * day, availability: 0.992 }],
      topServers: [{ serverId: "sp0-node01", count: 9, faultMs: 60 }, { serverId: "sp0-node02", count: 1, faultMs: 40 }],
      topCodes: [{ code: "81078603", count: 120, faultMs: 1000 }],
    }),
    new Map([["roce-link-down", 3 * hour]]),
    t0 + 7 * day,
  );
  const previous = periodTotals(
    stats({ from: t0 - 7 * day, to: t0, byLevel: [{ level: "SeparateNPU", count: 1100 }], mttrMs: 250_000, availability: [{ superPodId: "0", dies: 100, faultyDieMs: 0.005 * 100 * 7 * day, availability: 0.995 }] }),
    new Map(),
    t0 + 7 * day,
  );
  const report = {
    cluster: { id: 1, slug: "c", name: "C" },
    from: t0,
    to: t0 + 7 * day,
    now: t0 + 7 * day,
    grainMs: day,
    current,
    previous,
    deltas: reportDeltas(current, previous),
    series: [],
    topServers: compareOffenders([{ key: "sp0-node01", count: 9, faultMs: 60 }], []),
    topDies: [],
    topCodes: compareOffenders([{ key: "81078603", count: 120, faultMs: 1000 }], []),
    jobs: [],
  };
  const duration = (ms: number) => `${ms / 1000} s`;

  it("says availability, its change in points and where the loss sits, in English and Chinese", () => {
    const en = reportSummary(report, "en", duration);
    expect(en).toMatch(/^Availability 99\.20 % \(\u22120\.30 pts vs the previous period\); 1,234 fault events \(\+12 %\); MTTR 200 s \(\u221220 %\);/);
    expect(en).toContain("1 server accounts for 60 % of the servers' fault time");
    expect(en).toContain("most frequent code 81078603 (120 events, new this period).");
    const zh = reportSummary(report, "zh-CN", duration);
    expect(zh).toMatch(/^可用率 99\.20 %（较上期 \u22120\.30 个百分点）；故障事件 1,234 个（\+12 %）/);
    expect(zh).toContain("1 台服务器占服务器故障时长的 60 %");
    expect(zh.endsWith("。")).toBe(true);
  });

  it("never shows a change that rounds away as −0.00", () => {
    const fixed = (n: number, digits: number) => n.toFixed(digits);
    expect(signedNumber(-0.001, 2, fixed)).toBe("\u2212<0.01");
    expect(signedNumber(0.004, 2, fixed)).toBe("+<0.01");
    expect(signedNumber(-0.3, 2, fixed)).toBe("\u22120.30");
    expect(signedNumber(0, 2, fixed)).toBe("±0.00");
  });

  it("writes one figure a row with the previous value and the change", () => {
    const lines = reportCsv(report).trim().split("\r\n");
    expect(lines[0]).toBe("section,name,bucket,value,previous,change");
    expect(lines).toContain("total,events,,1234,1100,134");
    expect(lines).toContain("events_by_level,SeparateNPU,,1234,1100,134");
    expect(lines).toContain("die_hours_lost_by_kind,roce-link-down,,3,0,3");
    expect(lines).toContain("top_code_events,81078603,,120,0,120");
  });
});
