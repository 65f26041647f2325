import type pg from "pg";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { FaultKind } from "@/lib/faults/model";
import { reportBuckets, type ReportBucket } from "@/lib/faults/report";
import { hourMs, refreshFaultRollups, runningAt, splitPeriod, SqlParams } from "./rollups";

const faultyLevels = (Object.keys(faultLevelInfo) as FaultLevel[]).filter((l) => faultLevelInfo[l].tone === "faulty");
const origin = "timestamptz '2000-01-01 00:00:00+00'";
const epochMs = (expression: string) => `(extract(epoch from ${expression}) * 1000)::float8`;

/**
 * A period's series, bucket by bucket (UTC hours or days, clipped to [from, to)):
 * - events by level: the events that began in the bucket;
 * - lost die-time by kind and super pod: each work-stopping event on a die counts the part of it inside the bucket
 *   (open ones until `now`), so the buckets add up to the statistics' faultyDieMs;
 * - MTTR: faults (episodes, merged over the events that began in the period) by the bucket their first event began in.
 * Whole hours come from the rollups: counts and durations sit in the hour an event began, and the lost time inside a
 * run of whole hours [a, b) is the closed durations that began in it plus what the carries (fault_hour_carries) say
 * crosses a minus what crosses b, so no bucket edge reads fault_events. Only the open events and the events in the
 * partial hours at the period's edges (or running into them) are read from fault_events: a fixed number of lookups
 * whatever the number of buckets.
 */
export async function reportSeries(pool: pg.Pool, clusterId: number, from: number, to: number, now: number, grain: number): Promise<ReportBucket[]> {
  const buckets = reportBuckets(from, to, grain);
  if (buckets.length === 0) return [];
  const end = Math.min(to, now);
  const hours = splitPeriod(from, to, hourMs);
  // Carries at an edge come from every hour before it, so every stale hour before the whole hours' end is refreshed.
  await refreshFaultRollups(pool, clusterId, { to: hours.fullTo });
  const interval = grain === hourMs ? "1 hour" : "1 day";
  const bucketOf = (p: SqlParams, t: string) => `greatest(${p.at(from)}, date_bin('${interval}', ${t}, ${origin}))`;
  const wholeHours = (p: SqlParams) => `cluster_id = ${p.add(clusterId)} and hour >= ${p.at(hours.fullFrom)} and hour < ${p.at(hours.fullTo)}`;
  // The partial hours at the period's edges, and each bucket's part of them and of the whole hours.
  const partials = ([[from, hours.fullFrom], [hours.fullTo, to]] as const).filter(([a, b]) => a < b);
  /** Events that began in the partial hours (none when the period is whole hours: no scan at all). */
  const edges = (p: SqlParams) =>
    partials.length === 0 ? "false" : `f.cluster_id = ${p.add(clusterId)} and (${partials.map(([a, b]) => `(f.began_at >= ${p.at(a)} and f.began_at < ${p.at(b)})`).join(" or ")})`;
  const clip = ([a, b]: readonly [number, number]) => buckets.map((k) => ({ at: k.at, lo: Math.max(a, k.at), hi: Math.min(b, k.end) })).filter((k) => k.lo < k.hi);
  const partialPieces = partials.flatMap(clip);
  const wholePieces = clip([hours.fullFrom, hours.fullTo]);
  const times = (p: SqlParams, values: number[]) => `${p.add(values.map((t) => new Date(t).toISOString()))}::timestamptz[]`;

  const levels = new SqlParams();
  const lost = new SqlParams();
  const episodes = new SqlParams();
  const faulty = lost.add(faultyLevels);
  // Open events are cut at every bucket (partial: false); closed ones read here only at the partial hours (partial).
  const pieces = [...buckets.map((k) => ({ ...k, lo: k.at, hi: k.end, partial: false })), ...partialPieces.map((k) => ({ ...k, partial: true }))];
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
         where f.cluster_id = ${lost.add(clusterId)} and f.device_ref is not null and f.level = any(${faulty}::fault_level[])
           and f.began_at < ${lost.at(to)}
           and (f.ended_at is null${partials.map(([a, b]) => ` or (f.began_at >= ${lost.at(a)} and f.began_at < ${lost.at(b)}) or ${runningAt(lost, a)}`).join("")})
       ), pieces as (
         select * from unnest(${times(lost, pieces.map((k) => k.at))}, ${times(lost, pieces.map((k) => k.lo))}, ${times(lost, pieces.map((k) => k.hi))},
           ${lost.add(pieces.map((k) => k.partial))}::boolean[]) k(at, lo, hi, partial)
       ), whole as (
         select * from unnest(${times(lost, wholePieces.map((k) => k.at))}, ${times(lost, wholePieces.map((k) => k.lo))}, ${times(lost, wholePieces.map((k) => k.hi))}) k(at, lo, hi)
       ), carries as (
         select c.edge, c.kind, c.super_pod_ref, c.after_ms::float8 as ms from fault_hour_carries c
         where c.cluster_id = ${lost.add(clusterId)} and c.edge = any(${times(lost, [...new Set(wholePieces.flatMap((k) => [k.lo, k.hi]))])})
           and c.level = any(${faulty}::fault_level[])
       ), parts as (
         select ${bucketOf(lost, "hour")} as b, kind, super_pod_ref, die_closed_ms::float8 as ms from fault_hour_rollups
           where ${wholeHours(lost)} and level = any(${faulty}::fault_level[])
         union all select k.at, c.kind, c.super_pod_ref, c.ms from whole k join carries c on c.edge = k.lo
         union all select k.at, c.kind, c.super_pod_ref, -c.ms from whole k join carries c on c.edge = k.hi
         union all select k.at, d.kind, d.super_pod_ref, ${epochMs(`(least(coalesce(d.ended_at, ${lost.at(end)}), k.hi) - greatest(d.began_at, k.lo))`)}
           from direct d join pieces k on k.partial = (d.ended_at is not null) and least(coalesce(d.ended_at, ${lost.at(end)}), k.hi) > greatest(d.began_at, k.lo)
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
