import type pg from "pg";
import type { FaultStatistics } from "@/lib/faults/api-types";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { FaultKind } from "@/lib/faults/model";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { podDieCounts } from "./pod-dies";
import { dayMs, durationMs, hourMs, rollupRead, runningPast, splitPeriod, SqlParams, type RollupRead } from "./rollups";

const faultyLevels = (Object.keys(faultLevelInfo) as FaultLevel[]).filter((l) => faultLevelInfo[l].tone === "faulty");

/**
 * Statistics of the events in [from, to) (those that began in it, or before it and still going at its start): events
 * by kind and level, MTTR over their faults (episodes; an episode's events outside the period don't count), the most
 * affected servers, dies and codes and each super pod's availability by the time faults cover inside the period (open
 * faults until `now`). Whole hours and days come from the rollups unless stale, the rest from fault_events (rollupRead:
 * no refresh first, so it never writes); equal to computing it all from fault_events (db/queries/faults/timeline.int.test.ts
 * checks).
 */
export async function faultStatistics(
  pool: pg.Pool,
  cluster: ClusterHeader,
  from: number,
  to: number,
  now = Date.now(),
  /** How many of the most-affected servers, dies and codes to list (the report lists them all for the previous period). */
  top = 10,
): Promise<FaultStatistics> {
  const end = Math.min(to, now);
  const hours = splitPeriod(from, to, hourMs);
  const days = splitPeriod(from, to, dayMs);
  /** An event's time inside the period, ms (open events run until `now`), minus what the rollups already hold of it. */
  const covered = (p: SqlParams) => `(extract(epoch from (least(coalesce(f.ended_at, ${p.at(end)}), ${p.at(to)}) - greatest(f.began_at, ${p.at(from)}))) * 1000)`;
  const beyondRollups = (p: SqlParams) => `(${covered(p)} - case when f.ended_at is null then 0 else ${durationMs} end)`;
  const rollupRange = (p: SqlParams, column: string, split: { fullFrom: number; fullTo: number }) =>
    `cluster_id = ${p.add(cluster.id)} and ${column} >= ${p.at(split.fullFrom)} and ${column} < ${p.at(split.fullTo)}`;
  const byHour = (p: SqlParams) => rollupRead(p, "stale", cluster.id, from, to, hours, hourMs);
  const byDay = (p: SqlParams) => rollupRead(p, "stale", cluster.id, from, to, days, dayMs);

  const counts = new SqlParams();
  const episodes = new SqlParams();
  const onTargets = new SqlParams();
  const pods = new SqlParams();
  const codes = new SqlParams();
  const [countsRead, episodesRead, onTargetsRead, podsRead, codesRead] = [byHour(counts), byHour(episodes), byDay(onTargets), byHour(pods), byDay(codes)];
  const limit = (p: SqlParams) => `limit ${p.add(top)}`;
  /**
   * Events and fault time per target (`refs`: server and die, or code): day rollups (`table`, summed per target before
   * the union: a month is ~50k rows) plus what they leave out, as in `covered`. The statement's `with` holds `read.cte`.
   */
  const targets = (p: SqlParams, read: RollupRead, refs: string[], table: string) => {
    const some = (prefix: string) => `(${refs.map((r) => `${prefix}${r} is not null`).join(" or ")})`;
    const columns = refs.map((r) => `f.${r}`).join(", ");
    return `
    select ${refs.join(", ")}, sum(events) as n, sum(closed_ms) as ms from ${table} where ${rollupRange(p, "day", days)} and ${read.clean("day")} and ${some("")}
      group by ${refs.map((_, i) => i + 1).join(", ")}
    union all select ${columns}, 1, ${covered(p)} from ${read.events} where ${some("f.")}
    union all select ${columns}, 0, ${beyondRollups(p)} from fault_events f
      where f.cluster_id = ${p.add(cluster.id)} and ${runningPast(p, days.fullFrom, days.fullTo, to)} and ${read.rolledUp} and ${some("f.")}`;
  };
  const [levelRows, episodeRows, targetRows, availabilityRows, codeRows] = await Promise.all([
    pool.query<{ kind: FaultKind; level: FaultLevel; n: string; single_recovered: string; single_recovered_ms: string; single_open: string }>(
      `with ${countsRead.cte}
       select kind, level, sum(n) as n, sum(single_recovered) as single_recovered, sum(single_recovered_ms) as single_recovered_ms, sum(single_open) as single_open
       from (select kind, level, events as n, single_recovered, single_recovered_ms, single_open from fault_hour_rollups
               where ${rollupRange(counts, "hour", hours)} and ${countsRead.clean("hour")}
             union all select f.kind, f.level, 1, 0, 0, 0 from ${countsRead.events}) x
       group by 1, 2`,
      counts.values,
    ),
    // Faults of several events, merged from their parts in whole hours and their events outside them.
    pool.query<{ recovered: string; recovered_ms: string | null; open: string }>(
      `with ${episodesRead.cte}, parts as (
         select episode_id, began_at, ended_at, open_events from fault_episode_parts where ${rollupRange(episodes, "hour", hours)} and ${episodesRead.clean("hour")}
         union all select f.episode_id, f.began_at, f.ended_at, (f.ended_at is null)::int from ${episodesRead.events}
       ), merged as (
         select min(began_at) as began, case when sum(open_events) > 0 then null else max(ended_at) end as ended from parts group by episode_id
       )
       select count(ended) as recovered, sum(extract(epoch from (ended - began)) * 1000) as recovered_ms, count(*) - count(ended) as open from merged`,
      episodes.values,
    ),
    // The most affected servers and dies from one read of the rollups and events, each ranked by its row_number.
    pool.query<{ server_id: string; device_id: number | null; n: string; ms: string }>(
      `with ${onTargetsRead.cte}, x as (${targets(onTargets, onTargetsRead, ["server_ref", "device_ref"], "fault_day_target_rollups")}),
       by_server as (
         select s.server_id, sum(x.n) as n, sum(x.ms) as ms from x join servers s on s.id = x.server_ref group by 1
       ), by_die as (
         select s.server_id, d.device_id, sum(x.n) as n, sum(x.ms) as ms from x
         join devices d on d.id = x.device_ref join servers s on s.id = d.server_ref group by 1, 2
       ), ranked as (
         select 'server' as of, server_id, null::int as device_id, n, ms, row_number() over (order by n desc, ms desc, server_id) as rank from by_server
         union all select 'die', server_id, device_id, n, ms, row_number() over (order by n desc, ms desc, server_id, device_id) from by_die
       )
       select of, server_id, device_id, n, ms from ranked where rank <= ${onTargets.add(top)} order by of, rank`,
      onTargets.values,
    ),
    podDieCounts(pool, cluster).then((podDies) =>
      pool.query<{ super_pod_id: string | null; dies: string; ms: string | null }>(
        `with ${podsRead.cte}, pods as (
           select * from unnest(${pods.add(podDies.map((pod) => pod.superPodRef))}::int[], ${pods.add(podDies.map((pod) => pod.dies))}::bigint[]) as counted(super_pod_ref, dies)
         ), faulty as (
           -- One die's faulty time is the union of its faulty events; summing events is close enough for pods.
           select super_pod_ref, sum(ms) as ms from (
             select super_pod_ref, die_closed_ms as ms from fault_hour_rollups
               where ${rollupRange(pods, "hour", hours)} and ${podsRead.clean("hour")} and level = any(${pods.add(faultyLevels)}::fault_level[])
             union all select f.super_pod_ref, ${covered(pods)} from ${podsRead.events}
               where f.device_ref is not null and f.level = any(${pods.add(faultyLevels)}::fault_level[])
             union all select f.super_pod_ref, ${beyondRollups(pods)} from fault_events f
               where f.cluster_id = ${pods.add(cluster.id)} and ${runningPast(pods, hours.fullFrom, hours.fullTo, to)} and ${podsRead.rolledUp} and f.device_ref is not null
                 and f.level = any(${pods.add(faultyLevels)}::fault_level[])
           ) x group by 1
         )
         select p.super_pod_id, pods.dies, faulty.ms from pods left join super_pods p on p.id = pods.super_pod_ref
         left join faulty on faulty.super_pod_ref is not distinct from pods.super_pod_ref order by p.position nulls first`,
        pods.values,
      ),
    ),
    pool.query<{ code: string; n: string; ms: string }>(
      `with ${codesRead.cte} select x.code, sum(x.n) as n, sum(x.ms) as ms from (${targets(codes, codesRead, ["code"], "fault_day_code_rollups")}) x
       group by 1 order by 2 desc, 3 desc, x.code collate "C" ${limit(codes)}`,
      codes.values,
    ),
  ]);
  const byKind = new Map<FaultKind, number>();
  const byLevel = new Map<FaultLevel, number>();
  let recovered = Number(episodeRows.rows[0]?.recovered ?? 0);
  let recoveredMs = Number(episodeRows.rows[0]?.recovered_ms ?? 0);
  let open = Number(episodeRows.rows[0]?.open ?? 0);
  for (const row of levelRows.rows) {
    byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + Number(row.n));
    byLevel.set(row.level, (byLevel.get(row.level) ?? 0) + Number(row.n));
    recovered += Number(row.single_recovered);
    recoveredMs += Number(row.single_recovered_ms);
    open += Number(row.single_open);
  }
  const topServers: FaultStatistics["topServers"] = [];
  const topDies: FaultStatistics["topDies"] = [];
  for (const r of targetRows.rows) {
    if (r.device_id === null) topServers.push({ serverId: r.server_id, count: Number(r.n), faultMs: Number(r.ms) });
    else topDies.push({ serverId: r.server_id, deviceId: r.device_id, count: Number(r.n), faultMs: Number(r.ms) });
  }
  const byCount = <K extends string>(counts: Map<K, number>) => [...counts].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const spanMs = Math.max(1, end - from);
  return {
    from,
    to,
    byKind: byCount(byKind).map(([kind, count]) => ({ kind, count })),
    byLevel: byCount(byLevel).map(([level, count]) => ({ level, count })),
    mttrMs: recovered === 0 ? null : recoveredMs / recovered,
    recovered,
    open,
    topServers,
    topDies,
    topCodes: codeRows.rows.map((r) => ({ code: r.code, count: Number(r.n), faultMs: Number(r.ms) })),
    availability: availabilityRows.rows.map((r) => {
      const diesCount = Number(r.dies);
      const faultyDieMs = Math.max(0, Number(r.ms ?? 0));
      return { superPodId: r.super_pod_id, dies: diesCount, faultyDieMs, availability: Math.max(0, 1 - faultyDieMs / (diesCount * spanMs)) };
    }),
  };
}
