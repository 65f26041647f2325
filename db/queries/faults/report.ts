import type pg from "pg";
import type { FaultStatistics } from "@/lib/faults/api-types";
import type { FaultKind } from "@/lib/faults/model";
import {
  compareOffenders,
  periodTotals,
  previousPeriod,
  reportDeltas,
  reportGrain,
  reportTop,
  type FaultReport,
  type ReportBucket,
} from "@/lib/faults/report";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { reportJobLosses } from "./report-jobs";
import { reportSeries } from "./report-series";
import { faultStatistics } from "./statistics";

/** Every offender of a period (the statistics' lists are cut to `reportTop` only after the comparison). */
const allOffenders = 1_000_000;

const lostByKind = (series: ReportBucket[]) => {
  const sums = new Map<FaultKind, number>();
  for (const b of series) for (const [kind, ms] of Object.entries(b.lostByKind) as [FaultKind, number][]) sums.set(kind, (sums.get(kind) ?? 0) + ms);
  return sums;
};

const offenders = (s: FaultStatistics) => ({
  servers: s.topServers.map((x) => ({ key: x.serverId, count: x.count, faultMs: x.faultMs })),
  dies: s.topDies.map((x) => ({ key: `${x.serverId}/${x.deviceId}`, count: x.count, faultMs: x.faultMs })),
  codes: s.topCodes.map((x) => ({ key: x.code, count: x.count, faultMs: x.faultMs })),
});

/**
 * The fault report of [from, to) (the API's JSON and CSV, the Trends tab and the report page all read this): the
 * statistics of the period and, with `compare`, of the previous one of the same length, the period's series (hourly
 * up to three days, else daily), its top servers, dies and codes with their previous values, and what faults cost
 * each job. Everything from the rollups where whole hours and days allow (db/queries/faults/rollups.ts).
 */
export async function loadFaultReport(
  pool: pg.Pool,
  cluster: ClusterHeader,
  period: { from: number; to: number; compare: boolean },
  now = Date.now(),
): Promise<FaultReport> {
  const { from, to, compare } = period;
  const before = previousPeriod(from, to);
  const grain = reportGrain(from, to);
  // All at once, on separate pool connections: each read refreshes the rollups of its period first (one refresher
  // at a time per cluster, rollups.ts), so none reads stale hours.
  const [stats, series, previousStats, previousSeries, jobs] = await Promise.all([
    faultStatistics(pool, cluster, from, to, now, allOffenders),
    reportSeries(pool, cluster.id, from, to, now, grain),
    compare ? faultStatistics(pool, cluster, before.from, before.to, now, allOffenders) : null,
    compare ? reportSeries(pool, cluster.id, before.from, before.to, now, grain) : null,
    reportJobLosses(pool, cluster.id, from, to, now),
  ]);
  const current = periodTotals(stats, lostByKind(series), now);
  const previous = previousStats && previousSeries ? periodTotals(previousStats, lostByKind(previousSeries), now) : null;
  const now_ = offenders(stats);
  const then = previousStats ? offenders(previousStats) : null;
  return {
    cluster: { id: cluster.id, slug: cluster.slug, name: cluster.name },
    from,
    to,
    now,
    grainMs: grain,
    current,
    previous,
    deltas: previous ? reportDeltas(current, previous) : null,
    series,
    topServers: compareOffenders(now_.servers.slice(0, reportTop), then?.servers ?? null),
    topDies: compareOffenders(now_.dies.slice(0, reportTop), then?.dies ?? null),
    topCodes: compareOffenders(now_.codes.slice(0, reportTop), then?.codes ?? null),
    jobs,
  };
}
