import type pg from "pg";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { FaultKind } from "@/lib/faults/model";
import { reportBuckets, type ReportBucket } from "@/lib/faults/report";
import { hourMs, refreshFaultRollups, splitPeriod, SqlParams } from "./rollups";

const faultyLevels = (Object.keys(faultLevelInfo) as FaultLevel[]).filter((l) => faultLevelInfo[l].tone === "faulty");
const origin = "timestamptz '2000-01-01 00:00:00+00'";
const epochMs = (expression: string) => `(extract(epoch from ${expression}) * 1000)::float8`;

/**
 * A period's series, bucket by bucket (UTC hours or days, clipped to [from, to)):
 * - events by level: the events that began in the bucket;
 * - lost die-time by kind and super pod: each work-stopping event on a die counts the part of it inside the bucket
 *   (open ones until `now`), so the buckets add up to the statistics' faultyDieMs;
 * - MTTR: faults (episodes, merged over the events that began in the period) by the bucket their first event began in.
 * Whole hours come from the hourly rollups. Durations there are whole and sit in the hour an event began, so the
 * events that cross a bucket's edge (or the period's), the open ones and those in the partial hours at the edges are
 * read from fault_events: their part in each bucket added, their whole duration taken back from the rollups'.
 */
export async function reportSeries(pool: pg.Pool, clusterId: number, from: number, to: number, now: number, grain: number): Promise<ReportBucket[]> {
  const buckets = reportBuckets(from, to, grain);
  if (buckets.length === 0) return [];
  const end = Math.min(to, now);
  const hours = splitPeriod(from, to, hourMs);
  await refreshFaultRollups(pool, clusterId, { from: hours.fullFrom, to: hours.fullTo });
  const interval = grain === hourMs ? "1 hour" : "1 day";
  const bucketOf = (p: SqlParams, t: string) => `greatest(${p.at(from)}, date_bin('${interval}', ${t}, ${origin}))`;
  const wholeHours = (p: SqlParams) => `cluster_id = ${p.add(clusterId)} and hour >= ${p.at(hours.fullFrom)} and hour < ${p.at(hours.fullTo)}`;
  const edges = (p: SqlParams) =>
    `f.cluster_id = ${p.add(clusterId)} and ((f.began_at >= ${p.at(from)} and f.began_at < ${p.at(hours.fullFrom)}) or (f.began_at >= ${p.at(hours.fullTo)} and f.began_at < ${p.at(to)}))`;
  /**
   * Events an edge t (a bucket's start, or `to`) may cut: began in the hour before it and ending after it; the
   * longer and open ones are the other arms of `direct`. Hourly buckets: every event of the period.
   */
  const shortCrossers = (p: SqlParams) =>
    grain === hourMs
      ? `(f.began_at >= ${p.at(from - hourMs)} and f.began_at < ${p.at(to)})`
      : [...buckets.map((b) => b.at), to].map((t) => `(f.began_at >= ${p.at(t - hourMs)} and f.began_at < ${p.at(t)} and f.ended_at > ${p.at(t)})`).join(" or ");

  const levels = new SqlParams();
  const lost = new SqlParams();
  const episodes = new SqlParams();
  const [levelRows, lostRows, episodeRows] = await Promise.all([
    pool.query<{ at: number; level: FaultLevel; n: number }>(
      `select ${epochMs("b")} as at, level, sum(n)::float8 as n from (
         select ${bucketOf(levels, "hour")} as b, level, events as n from fault_hour_rollups where ${wholeHours(levels)}
         union all select ${bucketOf(levels, "f.began_at")}, f.level, 1 from fault_events f where ${edges(levels)}
       ) x group by 1, 2`,
      levels.values,
    ),
    pool.query<{ at: number; kind: FaultKind; pod: string; ms: number }>(
      `with direct as (
         select f.kind, f.super_pod_ref, f.began_at, f.ended_at from fault_events f
         where f.cluster_id = ${lost.add(clusterId)} and f.device_ref is not null and f.level = any(${lost.add(faultyLevels)}::fault_level[])
           and f.began_at < ${lost.at(to)}
           and ((f.began_at >= ${lost.at(from)} and f.began_at < ${lost.at(hours.fullFrom)}) or (f.began_at >= ${lost.at(hours.fullTo)})
             or f.ended_at is null
             or (f.ended_at > ${lost.at(from)} and f.ended_at - f.began_at >= interval '1 hour')
             or ${shortCrossers(lost)})
       ), parts as (
         select ${bucketOf(lost, "hour")} as b, kind, super_pod_ref, die_closed_ms::float8 as ms from fault_hour_rollups
           where ${wholeHours(lost)} and level = any(${lost.add(faultyLevels)}::fault_level[])
         union all select ${bucketOf(lost, "d.began_at")}, d.kind, d.super_pod_ref, -${epochMs("(d.ended_at - d.began_at)")} from direct d
           where d.ended_at is not null and d.began_at >= ${lost.at(hours.fullFrom)} and d.began_at < ${lost.at(hours.fullTo)}
         union all select k.at, d.kind, d.super_pod_ref, ${epochMs(`(least(coalesce(d.ended_at, ${lost.at(end)}), k.e) - greatest(d.began_at, k.at))`)}
           from direct d join unnest(${lost.add(buckets.map((b) => new Date(b.at).toISOString()))}::timestamptz[], ${lost.add(buckets.map((b) => new Date(b.end).toISOString()))}::timestamptz[]) k(at, e)
             on least(coalesce(d.ended_at, ${lost.at(end)}), k.e) > greatest(d.began_at, k.at)
       )
       select ${epochMs("x.b")} as at, x.kind, coalesce(p.super_pod_id, '') as pod, sum(x.ms)::float8 as ms
       from parts x left join super_pods p on p.id = x.super_pod_ref group by 1, 2, 3`,
      lost.values,
    ),
    pool.query<{ at: number; recovered: number; ms: number | null }>(
      `with parts as (
         select episode_id, began_at, ended_at, open_events from fault_episode_parts where ${wholeHours(episodes)}
         union all select f.episode_id, f.began_at, f.ended_at, (f.ended_at is null)::int from fault_events f where ${edges(episodes)}
       ), merged as (
         select min(began_at) as began, case when sum(open_events) > 0 then null else max(ended_at) end as ended from parts group by episode_id
       )
       select ${epochMs("b")} as at, sum(recovered)::float8 as recovered, sum(ms)::float8 as ms from (
         select ${bucketOf(episodes, "began")} as b, count(ended) as recovered, sum(${epochMs("(ended - began)")}) as ms from merged group by 1
         union all select ${bucketOf(episodes, "hour")}, sum(single_recovered), sum(single_recovered_ms) from fault_hour_rollups where ${wholeHours(episodes)} group by 1
       ) x group by 1`,
      episodes.values,
    ),
  ]);

  const byAt = new Map(buckets.map((b): [number, ReportBucket] => [b.at, { ...b, byLevel: {}, lostByKind: {}, lostByPod: {}, recovered: 0, mttrMs: null }]));
  const bucket = (at: number) => byAt.get(at) ?? null;
  for (const r of levelRows.rows) {
    const b = bucket(r.at);
    if (b) b.byLevel[r.level] = (b.byLevel[r.level] ?? 0) + r.n;
  }
  for (const r of lostRows.rows) {
    const b = bucket(r.at);
    if (!b || r.ms === 0) continue;
    b.lostByKind[r.kind] = (b.lostByKind[r.kind] ?? 0) + r.ms;
    b.lostByPod[r.pod] = (b.lostByPod[r.pod] ?? 0) + r.ms;
  }
  for (const r of episodeRows.rows) {
    const b = bucket(r.at);
    if (!b || r.recovered === 0) continue;
    b.recovered = r.recovered;
    b.mttrMs = (r.ms ?? 0) / r.recovered;
  }
  return [...byAt.values()];
}
