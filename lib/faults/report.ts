import type { FaultStatistics } from "./api-types";
import type { FaultLevel } from "./levels";
import type { FaultKind } from "./model";

/**
 * The managers' fault report (GET /api/v1/fault-events/report, the Trends tab, the report page): a period's totals,
 * its series, its top offenders and the jobs faults cost time, against the previous period of the same length.
 * The shapes, and the pure computations over them (series grid, availability, deltas); db/queries/faults/report.ts
 * loads the numbers.
 */

export const hourMs = 3_600_000;
export const dayMs = 86_400_000;
/** Periods up to this long are drawn hour by hour, longer ones day by day. */
export const hourlyUpToMs = 3 * dayMs;
/** The longest period a report covers (a year and a bit: 400 daily buckets). */
export const maxReportMs = 400 * dayMs;

/** One bucket of the series: [at, end), UTC hours or days, clipped to the period. */
export interface ReportBucket {
  at: number;
  end: number;
  /** Events that began in the bucket, by level. */
  byLevel: Partial<Record<FaultLevel, number>>;
  /** Die-time inside the bucket under a fault of a level that stops work, ms, by kind. */
  lostByKind: Partial<Record<FaultKind, number>>;
  /** The same die-time by super pod (key: super pod id, "" for dies outside any), ms. */
  lostByPod: Record<string, number>;
  /** Faults (episodes) whose first event in the period began in the bucket and that recovered: how many, mean ms. */
  recovered: number;
  mttrMs: number | null;
}

export interface PeriodTotals extends FaultStatistics {
  events: number;
  /** Die-time under work-stopping faults over all super pods, ms (the sum of availability[].faultyDieMs). */
  lostDieMs: number;
  lostByKind: { kind: FaultKind; dieMs: number }[];
  /** Over every die of the cluster: 1 − lost die-time / (dies × the period so far). */
  overallAvailability: number;
  /** Fault time summed over every server (not only the listed ones), ms: what the top servers' share is of. */
  serversFaultMs: number;
}

export interface Delta {
  current: number;
  previous: number;
  /** current − previous. */
  change: number;
  /** change / previous; null when previous is 0. */
  ratio: number | null;
}

export interface Offender {
  /** Server id, `<server>/<die>` or the code. */
  key: string;
  count: number;
  faultMs: number;
  /** The same offender in the previous period (zeros when it had no events then); null without comparison. */
  previous: { count: number; faultMs: number } | null;
  /** It had no events in the previous period. */
  isNew: boolean;
}

export interface JobLossCause {
  kind: FaultKind;
  code: string | null;
  events: number;
  /** Summed time of these events inside the job's run in the period, ms (overlaps counted per event). */
  ms: number;
}

export interface JobLoss {
  id: number;
  name: string;
  namespace: string;
  /** The job's run inside the period, ms. */
  runMs: number;
  /** Wall-clock time of that run under at least one work-stopping fault (lib/jobs/fault-cost.ts), ms. */
  stoppedMs: number;
  stoppingEvents: number;
  causes: JobLossCause[];
}

export interface ReportDeltas {
  events: Delta;
  mttrMs: Delta | null;
  lostDieMs: Delta;
  /** Overall availability, in percentage points (change = (current − previous) × 100). */
  availabilityPts: Delta;
  byLevel: { level: FaultLevel; delta: Delta }[];
  availabilityByPod: { superPodId: string | null; delta: Delta }[];
}

export interface FaultReport {
  cluster: { id: number; slug: string; name: string };
  from: number;
  to: number;
  /** The instant the report was computed at: open faults run until it. */
  now: number;
  grainMs: number;
  current: PeriodTotals;
  previous: PeriodTotals | null;
  deltas: ReportDeltas | null;
  series: ReportBucket[];
  topServers: Offender[];
  topDies: Offender[];
  topCodes: Offender[];
  /** Jobs that ran in the period, the most time lost first. */
  jobs: JobLoss[];
}

/** The series' grain for a period: hours up to three days, days beyond. */
export function reportGrain(from: number, to: number): number {
  return to - from <= hourlyUpToMs ? hourMs : dayMs;
}

/** The series' buckets: UTC hours or days, the first and last clipped to [from, to). */
export function reportBuckets(from: number, to: number, grain: number): { at: number; end: number }[] {
  const buckets: { at: number; end: number }[] = [];
  let at = from;
  while (at < to) {
    const end = Math.min(to, (Math.floor(at / grain) + 1) * grain);
    buckets.push({ at, end });
    at = end;
  }
  return buckets;
}

/** The previous period of the same length, ending where this one begins. */
export function previousPeriod(from: number, to: number): { from: number; to: number } {
  return { from: from - (to - from), to: from };
}

/** Availability of `dies` dies over [from, min(to, now)) with `lostMs` die-time lost; null for a span not yet begun. */
export function availabilityOf(lostMs: number, dies: number, from: number, to: number, now: number): number | null {
  const span = Math.min(to, now) - from;
  if (span <= 0 || dies <= 0) return null;
  return Math.max(0, 1 - lostMs / (dies * span));
}

export function delta(current: number, previous: number): Delta {
  const change = current - previous;
  return { current, previous, change, ratio: previous === 0 ? null : change / previous };
}

/** How many offenders of each kind a report lists. */
export const reportTop = 10;

/**
 * A period's totals from its statistics (every server, die and code listed; cut to `reportTop` here) and its lost
 * die-time by kind (summed over the series).
 */
export function periodTotals(stats: FaultStatistics, lostByKind: Map<FaultKind, number>, now: number): PeriodTotals {
  const lostDieMs = stats.availability.reduce((sum, a) => sum + a.faultyDieMs, 0);
  const dies = stats.availability.reduce((sum, a) => sum + a.dies, 0);
  return {
    ...stats,
    topServers: stats.topServers.slice(0, reportTop),
    topDies: stats.topDies.slice(0, reportTop),
    topCodes: stats.topCodes.slice(0, reportTop),
    serversFaultMs: stats.topServers.reduce((sum, s) => sum + s.faultMs, 0),
    events: stats.byLevel.reduce((sum, l) => sum + l.count, 0),
    lostDieMs,
    lostByKind: [...lostByKind].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([kind, dieMs]) => ({ kind, dieMs })),
    overallAvailability: availabilityOf(lostDieMs, dies, stats.from, stats.to, now) ?? 1,
  };
}

/** Exact deltas of the current period against the previous one. */
export function reportDeltas(current: PeriodTotals, previous: PeriodTotals): ReportDeltas {
  const levels = [...new Set([...current.byLevel, ...previous.byLevel].map((l) => l.level))];
  const countOf = (totals: PeriodTotals, level: FaultLevel) => totals.byLevel.find((l) => l.level === level)?.count ?? 0;
  const pods = [...new Set([...current.availability, ...previous.availability].map((a) => a.superPodId))];
  const podOf = (totals: PeriodTotals, pod: string | null) => totals.availability.find((a) => a.superPodId === pod)?.availability ?? 1;
  return {
    events: delta(current.events, previous.events),
    mttrMs: current.mttrMs === null || previous.mttrMs === null ? null : delta(current.mttrMs, previous.mttrMs),
    lostDieMs: delta(current.lostDieMs, previous.lostDieMs),
    availabilityPts: delta(current.overallAvailability * 100, previous.overallAvailability * 100),
    byLevel: levels.map((level) => ({ level, delta: delta(countOf(current, level), countOf(previous, level)) })),
    availabilityByPod: pods.map((superPodId) => ({ superPodId, delta: delta(podOf(current, superPodId) * 100, podOf(previous, superPodId) * 100) })),
  };
}

/** The current top offenders with their previous values (`previous` holds every offender of the previous period). */
export function compareOffenders(
  current: readonly { key: string; count: number; faultMs: number }[],
  previous: readonly { key: string; count: number; faultMs: number }[] | null,
): Offender[] {
  const before = new Map(previous?.map((p) => [p.key, p]));
  return current.map((c) => {
    if (previous === null) return { ...c, previous: null, isNew: false };
    const p = before.get(c.key);
    return { ...c, previous: { count: p?.count ?? 0, faultMs: p?.faultMs ?? 0 }, isNew: !p || p.count === 0 };
  });
}

/** Whether a change is good news: fewer events, less time lost, quicker recovery, more availability. */
export function improves(metric: "events" | "lostDieMs" | "mttrMs" | "availabilityPts", change: number): boolean | null {
  if (change === 0) return null;
  return metric === "availabilityPts" ? change > 0 : change < 0;
}
