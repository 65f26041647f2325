import { createHash } from "node:crypto";
import type pg from "pg";
import type { OpenFault } from "@/lib/faults/health";
import type { DensityBucket, FaultStatistics, TimelineEvent, TimelineResult } from "@/lib/faults/api-types";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { EscalationRule, FaultKind, FaultSource, TargetKind } from "@/lib/faults/model";
import { targetFilterOf, type TargetFilter } from "@/lib/faults/target-filter";
export type { DensityBucket, FaultStatistics, TimelineEvent, TimelineResult };
import type { TimelineQuery } from "../schema/fault-event/validation";
import { ceilTo, durationMs, hourMs, dayMs, outsideRollups, refreshFaultRollups, runningAt, runningPast, splitPeriod, SqlParams } from "./fault-rollups";
import { loadTargetIndex, reevaluateSeries, type ClusterRef, type TargetIndex } from "./faults";
import { jobAtEventJoin, jobFilterClause } from "./job-faults";
import { getFaultSettings } from "./settings";

interface Filters {
  clause: string;
  params: SqlParams;
}

/** The timeline's target filter over the cached inventory: a known server or die exactly, anything else by substring. */
function targetFilterIn(index: TargetIndex, text: string): TargetFilter {
  return targetFilterOf(text, (serverId) => {
    const server = index.servers.get(serverId);
    if (!server) return undefined;
    const prefix = `${server.ref}/`;
    const inServer = (keys: Iterable<string>) =>
      [...keys].filter((key) => key.startsWith(prefix)).map((key) => Number(key.slice(prefix.length))).sort((a, b) => a - b);
    return { npuIndexes: inServer(index.npus), deviceIds: inServer(index.dies.keys()) };
  });
}

/** Exact targets through the target and link-end indexes (migration 0006), the same arms as a node's recent faults. */
function targetClause(params: SqlParams, target: TargetFilter): string {
  if (target.kind === "search") return `f.target_key like ${params.add(`%${target.text.replace(/[%_\\]/g, "\\$&")}%`)}`;
  const keys = params.add(target.targetKeys);
  const ends = params.add(target.linkEnds);
  return `(f.target_key = any(${keys}::text[]) or (f.target_kind = 'link' and
    (split_part(substr(f.target_key, 6), '~', 1) = any(${ends}::text[]) or split_part(f.target_key, '~', 2) = any(${ends}::text[]))))`;
}

/** The window's events (those that began in it, or before it and still going at its start) that pass the filters. */
function filters(clusterId: number, query: TimelineQuery, target: TargetFilter | null, from: number, to: number): Filters {
  const params = new SqlParams();
  const parts = [`f.cluster_id = ${params.add(clusterId)}`, `((f.began_at >= ${params.at(from)} and f.began_at < ${params.at(to)}) or ${runningAt(params, from)})`];
  const add = (sql: (placeholder: string) => string, value: unknown) => parts.push(sql(params.add(value)));
  if (query.kind?.length) add((n) => `f.kind = any(${n}::fault_kind[])`, query.kind);
  if (query.level?.length) add((n) => `f.level = any(${n}::fault_level[])`, query.level);
  if (query.code) add((n) => `f.code = ${n}`, query.code.toUpperCase());
  if (target) parts.push(targetClause(params, target));
  if (query.state === "open") parts.push("f.ended_at is null");
  if (query.state === "closed") parts.push("f.ended_at is not null");
  if (query.job) parts.push(jobFilterClause(params, query.job));
  return { clause: parts.join(" and "), params };
}

/** Open network faults whose timeout has passed since they were judged: judge them again (stored), as time passes. */
export async function refreshOpenEscalations(pool: pg.Pool, clusterId: number, now = Date.now()): Promise<number> {
  const { rows } = await pool.query<{ series_key: string; began_at: Date }>(
    `select series_key, min(began_at) as began_at from fault_events
     where cluster_id = $1 and ended_at is null and rule = 'within-fault-timeout' and rule_at <= $2::timestamptz
     group by series_key`,
    [clusterId, new Date(now).toISOString()],
  );
  if (rows.length === 0) return 0;
  const settings = await getFaultSettings(pool, clusterId);
  const result = await reevaluateSeries(pool, clusterId, settings.escalation, rows.map((r) => r.series_key), Math.min(...rows.map((r) => r.began_at.getTime())), now);
  return result.updated;
}

const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/** About 240 buckets over the window; whole hours from an hour up, so they can be read from the hourly rollups. */
function densityBucketMs(from: number, to: number): number {
  const minutes = Math.max(60_000, Math.ceil((to - from) / 240 / 60_000) * 60_000);
  return minutes < hourMs ? minutes : ceilTo(minutes, hourMs);
}

/**
 * Events per bucket (aligned to UTC, an event in the bucket where it enters the window) and level. Filters the hourly
 * rollups know (kind, level) are read from them for the window's whole hours; finer filters read fault_events.
 */
async function densityOf(pool: pg.Pool, clusterId: number, query: TimelineQuery, target: TargetFilter | null, from: number, to: number, bucketMs: number) {
  const bucketOf = (at: string) => `date_bin(make_interval(secs => ${bucketMs / 1000}), ${at}, timestamptz '2000-01-01 00:00:00+00')`;
  if (bucketMs % hourMs !== 0 || query.code || target || query.job || query.state !== "all") {
    const base = filters(clusterId, query, target, from, to);
    const { rows } = await pool.query<{ bucket: Date; level: FaultLevel; n: string }>(
      `select ${bucketOf(`greatest(f.began_at, ${base.params.at(from)})`)} as bucket, f.level, count(*) as n
       from fault_events f where ${base.clause} group by 1, 2 order by 1`,
      base.params.values,
    );
    return rows;
  }
  const split = splitPeriod(from, to, hourMs);
  await refreshFaultRollups(pool, clusterId, { from: split.fullFrom, to: split.fullTo });
  const p = new SqlParams();
  const kinds = query.kind?.length ? p.add(query.kind) : null;
  const levels = query.level?.length ? p.add(query.level) : null;
  const filtered = (alias: string) =>
    (kinds ? ` and ${alias}kind = any(${kinds}::fault_kind[])` : "") + (levels ? ` and ${alias}level = any(${levels}::fault_level[])` : "");
  const { rows } = await pool.query<{ bucket: Date; level: FaultLevel; n: string }>(
    `select ${bucketOf("x.at")} as bucket, x.level, sum(x.n) as n from (
       select hour as at, level, events as n from fault_hour_rollups
       where cluster_id = ${p.add(clusterId)} and hour >= ${p.at(split.fullFrom)} and hour < ${p.at(split.fullTo)}${filtered("")}
       union all
       select greatest(f.began_at, ${p.at(from)}), f.level, 1 from fault_events f where ${outsideRollups(p, clusterId, from, to, split)}${filtered("f.")}
     ) x group by 1, 2 order by 1`,
    p.values,
  );
  return rows;
}

/**
 * The timeline of a window. The density (events per time bucket and level) covers every matching event and gives
 * the total; the rows are at most `limit` of them, read without a global sort or window function so a big window
 * stops reading early (rows come in the BRIN's physical, roughly time order; sorted here). Targets are named from
 * the cached inventory index instead of joins. Measured at 10M events: scripts/bench/fault-queries.ts.
 */
export async function listTimeline(pool: pg.Pool, cluster: ClusterRef, query: TimelineQuery, now = Date.now()): Promise<TimelineResult> {
  const from = query.from;
  const to = Math.max(query.to, from + 1);
  await refreshOpenEscalations(pool, cluster.id, now);
  const index = await loadTargetIndex(pool, cluster);
  const target = query.target ? targetFilterIn(index, query.target) : null;
  const { clause, params } = filters(cluster.id, query, target, from, to);
  const bucketMs = densityBucketMs(from, to);
  const [rows, density] = await Promise.all([
    pool.query<{
      id: string;
      target_kind: TargetKind;
      target_key: string;
      super_pod_ref: number | null;
      server_ref: number | null;
      device_ref: number | null;
      npu_index: number | null;
      kind: FaultKind;
      source: FaultSource;
      code: string | null;
      phase: string | null;
      reported_level: FaultLevel;
      level: FaultLevel;
      rule: EscalationRule;
      rule_at: number | null;
      release_at: number | null;
      episode_id: string;
      began_at: number;
      ended_at: number | null;
      job: string | null;
      rank: number | null;
      message: string | null;
    }>(
      // Instants as epoch ms (float8): parsing tens of thousands of timestamps into Dates costs more than the query.
      `select f.id, f.target_kind, f.target_key, f.super_pod_ref, f.server_ref, f.device_ref, f.npu_index, f.kind, f.source, f.code,
         f.phase, f.reported_level, f.level, f.rule, ${epochMs("f.rule_at")} as rule_at, ${epochMs("f.release_at")} as release_at, f.episode_id,
         ${epochMs("f.began_at")} as began_at, ${epochMs("f.ended_at")} as ended_at,
         coalesce(f.job, placed_job.job_name) as job, coalesce(f.rank, placed_job.job_rank) as rank, f.message
       from fault_events f ${jobAtEventJoin}
       where ${clause}
       limit ${query.limit}`,
      params.values,
    ),
    densityOf(pool, cluster.id, query, target, from, to, bucketMs),
  ]);
  const buckets = new Map<number, DensityBucket>();
  let total = 0;
  for (const row of density) {
    const at = row.bucket.getTime();
    const bucket = buckets.get(at) ?? { at, counts: {} };
    bucket.counts[row.level] = Number(row.n);
    total += Number(row.n);
    buckets.set(at, bucket);
  }
  const podIds = new Map([...index.superPods].map(([id, ref]) => [ref, id]));
  const dieIds = new Map<number, number>();
  for (const [key, die] of index.dies) dieIds.set(die.ref, Number(key.slice(key.indexOf("/") + 1)));
  const events: TimelineEvent[] = rows.rows.map((r) => ({
    id: r.id,
    targetKind: r.target_kind,
    targetKey: r.target_key,
    superPodId: r.super_pod_ref === null ? null : (podIds.get(r.super_pod_ref) ?? null),
    serverId: r.server_ref === null ? null : (index.serversByRef.get(r.server_ref)?.serverId ?? null),
    deviceId: r.device_ref === null ? null : (dieIds.get(r.device_ref) ?? null),
    npuIndex: r.npu_index,
    kind: r.kind,
    source: r.source,
    code: r.code,
    phase: r.phase,
    reportedLevel: r.reported_level,
    level: r.level,
    rule: r.rule,
    ruleAt: r.rule_at,
    releaseAt: r.release_at,
    episodeId: r.episode_id,
    beganAt: r.began_at,
    endedAt: r.ended_at,
    job: r.job,
    rank: r.rank,
    message: r.message,
  }));
  events.sort((a, b) => a.beganAt - b.beganAt || a.id.localeCompare(b.id));
  return {
    cluster: { id: cluster.id, slug: cluster.slug, name: cluster.name },
    from,
    to,
    total,
    truncated: total > events.length,
    density: { bucketMs, buckets: [...buckets.values()] },
    events,
  };
}

const faultyLevels = (Object.keys(faultLevelInfo) as FaultLevel[]).filter((l) => faultLevelInfo[l].tone === "faulty");

/**
 * Statistics of the events in [from, to) (those that began in it, or before it and still going at its start): events
 * by kind and level, MTTR over their faults (episodes; an episode's events outside the period don't count), the most
 * affected servers and dies and each super pod's availability by the time faults cover inside the period (open
 * faults until `now`). Whole hours and days come from the rollups, the rest from fault_events; equal to computing it
 * all from fault_events (db/queries/faults-timeline.int.test.ts checks).
 */
export async function faultStatistics(pool: pg.Pool, cluster: ClusterRef, from: number, to: number, now = Date.now()): Promise<FaultStatistics> {
  const end = Math.min(to, now);
  const hours = splitPeriod(from, to, hourMs);
  const days = splitPeriod(from, to, dayMs);
  await refreshFaultRollups(pool, cluster.id, { from: hours.fullFrom, to: hours.fullTo });
  /** An event's time inside the period, ms (open events run until `now`), minus what the rollups already hold of it. */
  const covered = (p: SqlParams) => `(extract(epoch from (least(coalesce(f.ended_at, ${p.at(end)}), ${p.at(to)}) - greatest(f.began_at, ${p.at(from)}))) * 1000)`;
  const beyondRollups = (p: SqlParams) => `(${covered(p)} - case when f.ended_at is null then 0 else ${durationMs} end)`;
  const rollupRange = (p: SqlParams, column: string, split: { fullFrom: number; fullTo: number }) =>
    `cluster_id = ${p.add(cluster.id)} and ${column} >= ${p.at(split.fullFrom)} and ${column} < ${p.at(split.fullTo)}`;

  const counts = new SqlParams();
  const episodes = new SqlParams();
  const servers = new SqlParams();
  const dies = new SqlParams();
  const pods = new SqlParams();
  const targets = (p: SqlParams, ref: string) => `
    select ${ref} as ref, events as n, closed_ms as ms from fault_day_target_rollups where ${rollupRange(p, "day", days)} and ${ref} is not null
    union all select f.${ref}, 1, ${covered(p)} from fault_events f where ${outsideRollups(p, cluster.id, from, to, days)} and f.${ref} is not null
    union all select f.${ref}, 0, ${beyondRollups(p)} from fault_events f
      where f.cluster_id = ${p.add(cluster.id)} and ${runningPast(p, days.fullFrom, days.fullTo, to)} and f.${ref} is not null`;
  const [levelRows, episodeRows, serverRows, dieRows, availabilityRows] = await Promise.all([
    pool.query<{ kind: FaultKind; level: FaultLevel; n: string; single_recovered: string; single_recovered_ms: string; single_open: string }>(
      `select kind, level, sum(n) as n, sum(single_recovered) as single_recovered, sum(single_recovered_ms) as single_recovered_ms, sum(single_open) as single_open
       from (select kind, level, events as n, single_recovered, single_recovered_ms, single_open from fault_hour_rollups where ${rollupRange(counts, "hour", hours)}
             union all select f.kind, f.level, 1, 0, 0, 0 from fault_events f where ${outsideRollups(counts, cluster.id, from, to, hours)}) x
       group by 1, 2`,
      counts.values,
    ),
    // Faults of several events, merged from their parts in whole hours and their events outside them.
    pool.query<{ recovered: string; recovered_ms: string | null; open: string }>(
      `with parts as (
         select episode_id, began_at, ended_at, open_events from fault_episode_parts where ${rollupRange(episodes, "hour", hours)}
         union all select f.episode_id, f.began_at, f.ended_at, (f.ended_at is null)::int from fault_events f where ${outsideRollups(episodes, cluster.id, from, to, hours)}
       ), merged as (
         select min(began_at) as began, case when sum(open_events) > 0 then null else max(ended_at) end as ended from parts group by episode_id
       )
       select count(ended) as recovered, sum(extract(epoch from (ended - began)) * 1000) as recovered_ms, count(*) - count(ended) as open from merged`,
      episodes.values,
    ),
    pool.query<{ server_id: string; n: string; ms: string }>(
      `select s.server_id, sum(x.n) as n, sum(x.ms) as ms from (${targets(servers, "server_ref")}) x join servers s on s.id = x.ref
       group by 1 order by 2 desc, 3 desc, 1 limit 10`,
      servers.values,
    ),
    pool.query<{ server_id: string; device_id: number; n: string; ms: string }>(
      `select s.server_id, d.device_id, sum(x.n) as n, sum(x.ms) as ms from (${targets(dies, "device_ref")}) x
       join devices d on d.id = x.ref join servers s on s.id = d.server_ref
       group by 1, 2 order by 3 desc, 4 desc, 1, 2 limit 10`,
      dies.values,
    ),
    pool.query<{ super_pod_id: string | null; dies: string; ms: string | null }>(
      `with pods as (
         select s.super_pod_ref, count(d.id) as dies from servers s join devices d on d.server_ref = s.id where s.cluster_id = ${pods.add(cluster.id)} group by 1
       ), faulty as (
         -- One die's faulty time is the union of its faulty events; summing events is close enough for pods.
         select super_pod_ref, sum(ms) as ms from (
           select super_pod_ref, die_closed_ms as ms from fault_hour_rollups where ${rollupRange(pods, "hour", hours)} and level = any(${pods.add(faultyLevels)}::fault_level[])
           union all select f.super_pod_ref, ${covered(pods)} from fault_events f
             where ${outsideRollups(pods, cluster.id, from, to, hours)} and f.device_ref is not null and f.level = any(${pods.add(faultyLevels)}::fault_level[])
           union all select f.super_pod_ref, ${beyondRollups(pods)} from fault_events f
             where f.cluster_id = ${pods.add(cluster.id)} and ${runningPast(pods, hours.fullFrom, hours.fullTo, to)} and f.device_ref is not null
               and f.level = any(${pods.add(faultyLevels)}::fault_level[])
         ) x group by 1
       )
       select p.super_pod_id, pods.dies, faulty.ms from pods left join super_pods p on p.id = pods.super_pod_ref
       left join faulty on faulty.super_pod_ref is not distinct from pods.super_pod_ref order by p.position nulls first`,
      pods.values,
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
    topServers: serverRows.rows.map((r) => ({ serverId: r.server_id, count: Number(r.n), faultMs: Number(r.ms) })),
    topDies: dieRows.rows.map((r) => ({ serverId: r.server_id, deviceId: r.device_id, count: Number(r.n), faultMs: Number(r.ms) })),
    availability: availabilityRows.rows.map((r) => {
      const diesCount = Number(r.dies);
      const faultyDieMs = Math.max(0, Number(r.ms ?? 0));
      return { superPodId: r.super_pod_id, dies: diesCount, faultyDieMs, availability: Math.max(0, 1 - faultyDieMs / (diesCount * spanMs)) };
    }),
  };
}

/** Open events per die (or NPU, server), worst level: what the topology's health overlay shows. */
export async function openFaultHealth(pool: pg.Pool, clusterId: number): Promise<(OpenFault & { count: number })[]> {
  const { rows } = await pool.query<{ super_pod_id: string | null; server_id: string; npu_index: number | null; device_id: number | null; level: FaultLevel; n: string }>(
    `select p.super_pod_id, s.server_id, f.npu_index, d.device_id, max(f.level) as level, count(*) n from fault_events f
     join servers s on s.id = f.server_ref left join super_pods p on p.id = s.super_pod_ref left join devices d on d.id = f.device_ref
     where f.cluster_id = $1 and f.ended_at is null group by 1, 2, 3, 4 order by 2, 4`,
    [clusterId],
  );
  return rows.map((r) => ({ superPodId: r.super_pod_id, serverId: r.server_id, npuIndex: r.npu_index, deviceId: r.device_id, level: r.level, count: Number(r.n) }));
}

/**
 * The open faults of a cluster (re-judged as time passes) and a short version of them, for ETags: equal version,
 * equal overlay.
 */
export async function faultHealthSnapshot(pool: pg.Pool, clusterId: number): Promise<{ collected: boolean; version: string; faults: OpenFault[] }> {
  // A cluster that never had a fault event has no health data: its health stays unknown, never "healthy".
  const { rows } = await pool.query<{ collected: boolean }>("select exists (select 1 from fault_events where cluster_id = $1) as collected", [clusterId]);
  const collected = rows[0]?.collected ?? false;
  if (!collected) return { collected, version: "none", faults: [] };
  await refreshOpenEscalations(pool, clusterId);
  const faults = await openFaultHealth(pool, clusterId);
  const version = createHash("sha256").update(JSON.stringify(faults)).digest("base64url").slice(0, 12);
  return { collected, version, faults };
}
