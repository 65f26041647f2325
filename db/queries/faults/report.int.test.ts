import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import { previousPeriod, reportBuckets, reportGrain, type FaultReport } from "@/lib/faults/report";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { testDatabase } from "@/test/database";
import { directStatistics, eventTargets, insertEvents, nextEventId, random, randomEvents, type EventRow, type EventTarget } from "@/test/fault-events";
import { seedDemo } from "../../seed";
import { getClusterOrThrow } from "../clusters";
import { loadFaultReport } from "./report";

const hour = 3_600_000;
const day = 24 * hour;
const t0 = Date.parse("2026-09-01T00:00:00Z");
const now = t0 + 62 * day + 17 * 60_000;
let cluster: ClusterHeader;
let pool: pg.Pool;

interface Row {
  id: string;
  episode: string;
  kind: string;
  level: FaultLevel;
  began: number;
  ended: number | null;
  device: boolean;
  pod: string;
  key: string;
}
let events: Row[] = [];

/** Periods: 30 days ending after now, ragged days, whole days, two days hour by hour, under an hour, before any event. */
const periods: [string, number, number][] = [
  ["30 days ending after now", t0 + 32 * day + 5 * hour + 17 * 60_000, t0 + 62 * day + 5 * hour + 17 * 60_000],
  ["ten ragged days", t0 + 35 * day + 5 * hour + 17 * 60_000 + 123, t0 + 45 * day + 11 * 60_000],
  ["a whole week", t0 + 40 * day, t0 + 47 * day],
  ["two days, hourly", t0 + 50 * day + 30 * 60_000 + 1, t0 + 52 * day + 30 * 60_000 + 1],
  ["under an hour", t0 + 44 * day + 5 * 60_000, t0 + 44 * day + 50 * 60_000],
  ["before every event", t0 - 9 * day, t0 - day],
];

const stopsWork = (level: FaultLevel) => faultLevelInfo[level].tone === "faulty";
const overlap = (e: Row, a: number, b: number) => Math.min(e.ended ?? Math.min(now, b), b) - Math.max(e.began, a);

/** The series computed event by event, in JS, from every row of fault_events. */
function directSeries(from: number, to: number) {
  const end = Math.min(to, now);
  const episodes = new Map<string, { began: number; ended: number | null; open: boolean }>();
  for (const e of events.filter((x) => x.began >= from && x.began < to)) {
    const ep = episodes.get(e.episode) ?? { began: Infinity, ended: null, open: false };
    ep.began = Math.min(ep.began, e.began);
    ep.open ||= e.ended === null;
    if (e.ended !== null) ep.ended = Math.max(ep.ended ?? -Infinity, e.ended);
    episodes.set(e.episode, ep);
  }
  return reportBuckets(from, to, reportGrain(from, to)).map((b) => {
    const byLevel: Record<string, number> = {};
    const lostByKind: Record<string, number> = {};
    const lostByPod: Record<string, number> = {};
    for (const e of events) {
      if (e.began >= b.at && e.began < b.end) byLevel[e.level] = (byLevel[e.level] ?? 0) + 1;
      if (!e.device || !stopsWork(e.level)) continue;
      const ms = Math.min(e.ended ?? end, b.end) - Math.max(e.began, b.at);
      if (ms <= 0) continue;
      lostByKind[e.kind] = (lostByKind[e.kind] ?? 0) + ms;
      lostByPod[e.pod] = (lostByPod[e.pod] ?? 0) + ms;
    }
    const recovered = [...episodes.values()].filter((ep) => !ep.open && ep.began >= b.at && ep.began < b.end);
    const mttrMs = recovered.length ? recovered.reduce((s, ep) => s + ep.ended! - ep.began, 0) / recovered.length : null;
    return { ...b, byLevel, lostByKind, lostByPod, recovered: recovered.length, mttrMs };
  });
}

/** Over every die; summed events may cover a die twice, so it stops at 0 (as each super pod's does). */
const overallAvailability = (s: Awaited<ReturnType<typeof directStatistics>>, from: number, to: number) =>
  Math.max(0, 1 - s.availability.reduce((sum, a) => sum + a.faultyDieMs, 0) / (s.availability.reduce((sum, a) => sum + a.dies, 0) * Math.max(1, Math.min(to, now) - from)));

/**
 * Events the random ones rarely give: lasting days to weeks (across many day edges, some from before every period),
 * beginning or ending exactly on an hour or a day edge, and open ones that began long before the periods.
 */
function spanningEvents(next: () => number, targets: EventTarget[], count: number): EventRow[] {
  const pick = <T,>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const levels: FaultLevel[] = ["PreSeparateNPU", "RestartBusiness", "SeparateNPU", "NotHandleFault"];
  return Array.from({ length: count }, (_, i): EventRow => {
    const onEdge = i % 5 === 0;
    const began = onEdge ? t0 + Math.floor(next() * 60) * (i % 2 ? day : hour) : t0 - 20 * day + Math.floor(next() * 80 * day);
    const length = i % 7 === 0 ? null : i % 3 === 0 ? Math.ceil(next() * 60) * day : Math.floor(hour + next() * 25 * day);
    const ended = length === null ? null : i % 4 === 0 ? (Math.floor((began + length) / hour) + 1) * hour : began + length;
    const id = nextEventId();
    return { id, began, ended, episode: id, target: pick(targets), kind: pick(["roce-link-down", "npu-chip-fault", "hccl-error"]), level: pick(levels), code: "81078603" };
  });
}

async function loadEvents(): Promise<void> {
  const { rows } = await pool.query<Row>(
    `select f.id, f.episode_id as episode, f.kind::text, f.level::text, (extract(epoch from f.began_at) * 1000)::float8 as began,
       (extract(epoch from f.ended_at) * 1000)::float8 as ended, f.device_ref is not null as device, coalesce(p.super_pod_id, '') as pod, f.target_key as key
     from fault_events f left join super_pods p on p.id = f.super_pod_ref where f.cluster_id = $1`,
    [cluster.id],
  );
  events = rows;
}

/** The report's series and lost time against the direct computation, for every period. */
async function expectSeriesExact(when: string): Promise<void> {
  for (const [label, from, to] of periods) {
    const report = await loadFaultReport(pool, cluster, { from, to, compare: true }, now);
    for (const [got, [a, b]] of [[report.series, [from, to]], [null, [previousPeriod(from, to).from, previousPeriod(from, to).to]]] as const) {
      const series = got ?? (await loadFaultReport(pool, cluster, { from: a, to: b, compare: false }, now)).series;
      expect(series.map(({ mttrMs: _m, ...rest }) => rest), `${when}: ${label} [${a}, ${b})`).toEqual(directSeries(a, b).map(({ mttrMs: _m, ...rest }) => rest));
    }
  }
}

beforeAll(async () => {
  ({ pool } = testDatabase());
  await seedDemo(testDatabase().db, [demoA3Cluster(2, 3)]);
  cluster = await getClusterOrThrow(testDatabase().db, "atlas-a3-demo");
  const targets = await eventTargets(pool, cluster.id);
  const next = random(18);
  await insertEvents(pool, cluster.id, [...randomEvents(next, targets, 4000, [t0, now - hour]), ...spanningEvents(next, targets.filter((t) => t.deviceRef !== null), 120)]);
  await loadEvents();
});

describe("the fault report", () => {
  it("gives each period's totals, series and offenders as computed event by event, and exact deltas", async () => {
    for (const [label, from, to] of periods) {
      const report: FaultReport = await loadFaultReport(pool, cluster, { from, to, compare: true }, now);
      const before = previousPeriod(from, to);
      const [current, previous] = await Promise.all([directStatistics(pool, cluster, from, to, now), directStatistics(pool, cluster, before.from, before.to, now)]);
      for (const [got, want] of [[report.current, current], [report.previous!, previous]] as const) {
        expect({ byLevel: got.byLevel, byKind: got.byKind, availability: got.availability, recovered: got.recovered, open: got.open }, label).toEqual({
          byLevel: want.byLevel,
          byKind: want.byKind,
          availability: want.availability,
          recovered: want.recovered,
          open: want.open,
        });
        expect([got.topServers, got.topDies, got.topCodes], label).toEqual([want.topServers, want.topDies, want.topCodes]);
      }

      const series = directSeries(from, to);
      expect(report.series.map(({ mttrMs: _m, ...rest }) => rest), label).toEqual(series.map(({ mttrMs: _m, ...rest }) => rest));
      report.series.forEach((b, i) => (series[i]!.mttrMs === null ? expect(b.mttrMs).toBeNull() : expect(b.mttrMs, label).toBeCloseTo(series[i]!.mttrMs!, 3)));
      // The buckets' lost die-time adds up to the period's (the statistics' faultyDieMs).
      const lost = report.series.reduce((s, b) => s + Object.values(b.lostByKind).reduce((x, y) => x + y, 0), 0);
      expect(lost, label).toBe(current.availability.reduce((s, a) => s + a.faultyDieMs, 0));

      // Deltas: exactly current − previous of the numbers computed event by event.
      const eventCount = (s: typeof current) => s.byLevel.reduce((sum, l) => sum + l.count, 0);
      const d = report.deltas!;
      expect(d.events.change, label).toBe(eventCount(current) - eventCount(previous));
      expect(d.lostDieMs.change, label).toBe(current.availability.reduce((s, a) => s + a.faultyDieMs, 0) - previous.availability.reduce((s, a) => s + a.faultyDieMs, 0));
      expect(d.availabilityPts.change, label).toBe(overallAvailability(current, from, to) * 100 - overallAvailability(previous, before.from, before.to) * 100);
      for (const { level, delta } of d.byLevel) {
        expect(delta.change, `${label} ${level}`).toBe((current.byLevel.find((l) => l.level === level)?.count ?? 0) - (previous.byLevel.find((l) => l.level === level)?.count ?? 0));
      }

      // Offenders: their values in the previous period, counted directly, and "new" exactly when they had none.
      for (const o of report.topServers) {
        const had = (await pool.query<{ n: string }>(
          `select count(*) n from fault_events f join servers s on s.id = f.server_ref where f.cluster_id = $1 and s.server_id = $2
             and f.began_at < $4::timestamptz and (f.began_at >= $3::timestamptz or f.ended_at is null or f.ended_at > $3::timestamptz)`,
          [cluster.id, o.key, new Date(before.from).toISOString(), new Date(before.to).toISOString()],
        )).rows[0]!.n;
        expect(o.previous!.count, `${label} ${o.key}`).toBe(Number(had));
        expect(o.isNew).toBe(Number(had) === 0);
      }
    }
  });

  it("keeps the series exact as long events end late, change level and are deleted, long after they began", async () => {
    await expectSeriesExact("before the changes");
    // Changes to events that began before every period read (the earliest starts at t0 + 2 days): their hours are
    // outside them, yet they carry time across the periods' edges.
    const long = events.filter((e) => e.device && e.began < t0 + 2 * day && (e.ended === null || e.ended > t0 + 35 * day));
    expect(long.length).toBeGreaterThan(5);
    const [closing, relevelling, deleting] = [long.filter((e) => e.ended === null).slice(0, 3), long.filter((e) => e.ended !== null).slice(0, 3), long.slice(-2)];
    await pool.query("update fault_events set ended_at = began_at + interval '45 days 7 hours' where id = any($1)", [closing.map((e) => e.id)]);
    await pool.query("update fault_events set level = case when level = 'NotHandleFault' then 'SeparateNPU'::fault_level else 'NotHandleFault'::fault_level end where id = any($1)", [relevelling.map((e) => e.id)]);
    await pool.query("delete from fault_events where id = any($1)", [deleting.map((e) => e.id)]);
    await loadEvents();
    await expectSeriesExact("after the changes");
  });

  it("counts a job's time under work-stopping faults on its dies and servers once, with the faults that caused it", async () => {
    const dies = [...new Set(events.filter((e) => e.key.startsWith("die:")).map((e) => e.key.slice(4)))].slice(0, 6);
    const servers = new Set(dies.map((d) => d.split("/")[0]!));
    const started = t0 + 36 * day + 3 * hour;
    const { rows } = await pool.query<{ id: number }>(
      `insert into jobs (cluster_id, name, namespace, state, source, started_at, placement) values ($1, 'report-job', 'default', 'running', 'api', $2, '{}') returning id`,
      [cluster.id, new Date(started).toISOString()],
    );
    await pool.query(
      "insert into job_ranks (job_id, position, rank, die_key) select $1, i - 1, i - 1, k from unnest($2::text[]) with ordinality as u(k, i)",
      [rows[0]!.id, dies],
    );
    const [from, to] = [t0 + 40 * day, t0 + 47 * day];
    const report = await loadFaultReport(pool, cluster, { from, to, compare: false }, now);
    const job = report.jobs.find((j) => j.name === "report-job")!;
    const hits = events.filter(
      (e) => stopsWork(e.level) && ((e.key.startsWith("die:") && dies.includes(e.key.slice(4))) || (e.key.startsWith("server:") && servers.has(e.key.slice(7)))) && overlap(e, from, to) > 0,
    );
    // The union of their intervals inside the run (a sorted sweep).
    const spans = hits.map((e) => [Math.max(from, e.began), Math.min(to, e.ended ?? now)] as const).sort((a, b) => a[0] - b[0]);
    let stopped = 0;
    let cursor = -Infinity;
    for (const [a, b] of spans) {
      if (b > Math.max(a, cursor)) stopped += b - Math.max(a, cursor);
      cursor = Math.max(cursor, b);
    }
    expect(hits.length).toBeGreaterThan(5);
    expect(job.runMs).toBe(to - from);
    expect(job.stoppingEvents).toBe(hits.length);
    expect(job.stoppedMs).toBe(stopped);
    expect(job.causes.reduce((s, c) => s + c.events, 0)).toBe(hits.length);
    expect(job.causes.reduce((s, c) => s + c.ms, 0)).toBe(spans.reduce((s, [a, b]) => s + b - a, 0));
  });
});
