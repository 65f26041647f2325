import type { Delta, FaultReport, Offender, PeriodTotals } from "./report";
import { toCsv } from "./timeline";

/**
 * The report as CSV (GET /api/v1/fault-events/report?format=csv): one figure a row, in long form so a spreadsheet
 * pivots it. Columns: section, name, bucket (the series' bucket start, ISO 8601 UTC; empty for totals), value,
 * previous (the previous period's value, when compared), change (value − previous). Durations in seconds,
 * die-time in die-hours, availability in percent.
 */
export const reportCsvHeader = ["section", "name", "bucket", "value", "previous", "change"];

type Cell = string | number | null;
const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : ms / 1000);
const dieHours = (ms: number) => ms / 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function totals(current: PeriodTotals, previous: PeriodTotals | null, delta: FaultReport["deltas"]): Cell[][] {
  const row = (name: string, value: number | null, before: number | null | undefined, d?: Delta | null): Cell[] => [
    "total",
    name,
    null,
    value,
    before ?? null,
    d ? d.change : value !== null && before !== null && before !== undefined ? value - before : null,
  ];
  const rows: Cell[][] = [
    row("events", current.events, previous?.events, delta?.events),
    row("mttr_s", seconds(current.mttrMs), previous ? seconds(previous.mttrMs) : null, delta?.mttrMs && { ...delta.mttrMs, change: delta.mttrMs.change / 1000 }),
    row("recovered", current.recovered, previous?.recovered),
    row("open", current.open, previous?.open),
    row("die_hours_lost", dieHours(current.lostDieMs), previous ? dieHours(previous.lostDieMs) : null),
    row("availability_pct", current.overallAvailability * 100, previous ? previous.overallAvailability * 100 : null, delta?.availabilityPts),
  ];
  for (const l of delta?.byLevel ?? current.byLevel.map((x) => ({ level: x.level, delta: null }))) {
    const value = current.byLevel.find((x) => x.level === l.level)?.count ?? 0;
    rows.push(["events_by_level", l.level, null, value, l.delta?.previous ?? null, l.delta?.change ?? null]);
  }
  for (const a of current.availability) {
    const before = previous?.availability.find((x) => x.superPodId === a.superPodId);
    rows.push(["availability_pct_by_super_pod", a.superPodId ?? "", null, a.availability * 100, before ? before.availability * 100 : null, before ? (a.availability - before.availability) * 100 : null]);
  }
  const kinds = new Set([...current.lostByKind, ...(previous?.lostByKind ?? [])].map((k) => k.kind));
  for (const kind of kinds) {
    const value = current.lostByKind.find((k) => k.kind === kind)?.dieMs ?? 0;
    const before = previous ? (previous.lostByKind.find((k) => k.kind === kind)?.dieMs ?? 0) : null;
    rows.push(["die_hours_lost_by_kind", kind, null, dieHours(value), before === null ? null : dieHours(before), before === null ? null : dieHours(value - before)]);
  }
  return rows;
}

function offenders(section: string, list: Offender[]): Cell[][] {
  return list.flatMap((o) => [
    [`${section}_events`, o.key, null, o.count, o.previous?.count ?? null, o.previous ? o.count - o.previous.count : null],
    [`${section}_fault_s`, o.key, null, o.faultMs / 1000, o.previous ? o.previous.faultMs / 1000 : null, o.previous ? (o.faultMs - o.previous.faultMs) / 1000 : null],
  ]);
}

export function reportCsv(report: FaultReport): string {
  const rows: Cell[][] = [
    ["period", "from", null, iso(report.from), report.previous ? iso(report.previous.from) : null, null],
    ["period", "to", null, iso(report.to), report.previous ? iso(report.previous.to) : null, null],
    ...totals(report.current, report.previous, report.deltas),
  ];
  for (const b of report.series) {
    for (const [level, n] of Object.entries(b.byLevel)) rows.push(["series_events", level, iso(b.at), n, null, null]);
    for (const [kind, ms] of Object.entries(b.lostByKind)) rows.push(["series_die_hours_lost", kind, iso(b.at), dieHours(ms), null, null]);
    for (const [pod, ms] of Object.entries(b.lostByPod)) rows.push(["series_die_hours_lost_by_super_pod", pod, iso(b.at), dieHours(ms), null, null]);
    if (b.mttrMs !== null) rows.push(["series_mttr_s", "", iso(b.at), b.mttrMs / 1000, null, null]);
  }
  rows.push(...offenders("top_server", report.topServers), ...offenders("top_die", report.topDies), ...offenders("top_code", report.topCodes));
  for (const job of report.jobs) {
    const name = `${job.namespace}/${job.name}`;
    rows.push(["job_stopped_s", name, null, job.stoppedMs / 1000, null, null], ["job_run_s", name, null, job.runMs / 1000, null, null]);
    for (const c of job.causes) rows.push(["job_cause_s", `${name} ${c.kind}${c.code ? ` ${c.code}` : ""}`, null, c.ms / 1000, null, null]);
  }
  return toCsv(reportCsvHeader, rows);
}
