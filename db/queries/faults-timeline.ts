import { createHash } from "node:crypto";
import type pg from "pg";
import type { OpenFault } from "@/lib/faults/health";
import type { DensityBucket, FaultStatistics, TimelineEvent, TimelineResult } from "@/lib/faults/api-types";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { EscalationRule, FaultKind, FaultSource, TargetKind } from "@/lib/faults/model";
export type { DensityBucket, FaultStatistics, TimelineEvent, TimelineResult };
import type { TimelineQuery } from "../schema/fault-event/validation";
import { loadTargetIndex, reevaluateSeries, type ClusterRef } from "./faults";
import { getFaultSettings } from "./settings";

/** Events longer than this that began before the window are found through the open-events index or not at all. */
const longestClosedEventMs = 7 * 86_400_000;




interface Filters {
  clause: string;
  params: unknown[];
}

function filters(clusterId: number, query: TimelineQuery, from: number, to: number): Filters {
  const params: unknown[] = [clusterId, new Date(from).toISOString(), new Date(to).toISOString(), new Date(from - longestClosedEventMs).toISOString()];
  const parts = [
    "f.cluster_id = $1",
    // Both arms are indexable: a began_at range (BRIN), and older open events (the partial index on open events).
    "((f.began_at >= $4::timestamptz and f.began_at < $3::timestamptz) or (f.ended_at is null and f.began_at < $4::timestamptz))",
    "(f.ended_at is null or f.ended_at > $2::timestamptz)",
  ];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(params.length));
  };
  if (query.kind?.length) add((n) => `f.kind = any($${n}::fault_kind[])`, query.kind);
  if (query.level?.length) add((n) => `f.level = any($${n}::fault_level[])`, query.level);
  if (query.code) add((n) => `f.code = $${n}`, query.code.toUpperCase() === query.code ? query.code : query.code.toUpperCase());
  if (query.target) add((n) => `f.target_key like $${n}`, `%${query.target.replace(/[%_\\]/g, "\\$&")}%`);
  if (query.state === "open") parts.push("f.ended_at is null");
  if (query.state === "closed") parts.push("f.ended_at is not null");
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

/**
 * The timeline of a window. The density (events per time bucket and level) covers every matching event and gives
 * the total; the rows are at most `limit` of them, read without a global sort or window function so a big window
 * stops reading early (rows come in the BRIN's physical, roughly time order; sorted here). Targets are named from
 * the cached inventory index instead of joins. Measured at 10M events: scripts/bench/faults.ts.
 */
export async function listTimeline(pool: pg.Pool, cluster: ClusterRef, query: TimelineQuery, now = Date.now()): Promise<TimelineResult> {
  const from = query.from;
  const to = Math.max(query.to, from + 1);
  await refreshOpenEscalations(pool, cluster.id, now);
  const { clause, params } = filters(cluster.id, query, from, to);
  const bucketMs = Math.max(60_000, Math.ceil((to - from) / 240 / 60_000) * 60_000);
  const [index, rows, density] = await Promise.all([
    loadTargetIndex(pool, cluster),
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
      rule_at: Date | null;
      release_at: Date | null;
      episode_id: string;
      began_at: Date;
      ended_at: Date | null;
      job: string | null;
      rank: number | null;
      message: string | null;
    }>(
      `select f.id, f.target_kind, f.target_key, f.super_pod_ref, f.server_ref, f.device_ref, f.npu_index, f.kind, f.source, f.code,
         f.phase, f.reported_level, f.level, f.rule, f.rule_at, f.release_at, f.episode_id, f.began_at, f.ended_at, f.job, f.rank, f.message
       from fault_events f
       where ${clause}
       limit ${query.limit}`,
      params,
    ),
    pool.query<{ bucket: Date; level: FaultLevel; n: string }>(
      `select date_bin(make_interval(secs => ${bucketMs / 1000}), greatest(f.began_at, $2::timestamptz), $2::timestamptz) as bucket, f.level, count(*) as n
       from fault_events f where ${clause} group by 1, 2 order by 1`,
      params,
    ),
  ]);
  const buckets = new Map<number, DensityBucket>();
  let total = 0;
  for (const row of density.rows) {
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
    ruleAt: r.rule_at?.getTime() ?? null,
    releaseAt: r.release_at?.getTime() ?? null,
    episodeId: r.episode_id,
    beganAt: r.began_at.getTime(),
    endedAt: r.ended_at?.getTime() ?? null,
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

export async function faultStatistics(pool: pg.Pool, cluster: ClusterRef, from: number, to: number, now = Date.now()): Promise<FaultStatistics> {
  const end = Math.min(to, now);
  const base = [cluster.id, new Date(from).toISOString(), new Date(to).toISOString(), new Date(from - longestClosedEventMs).toISOString()];
  const window = `f.cluster_id = $1 and (f.ended_at is null or f.ended_at > $2::timestamptz)
    and ((f.began_at >= $4::timestamptz and f.began_at < $3::timestamptz) or (f.ended_at is null and f.began_at < $4::timestamptz))`;
  // Time a fault covers inside the window, in ms; open faults run until now.
  const covered = `extract(epoch from (least(coalesce(f.ended_at, $5::timestamptz), $3::timestamptz) - greatest(f.began_at, $2::timestamptz))) * 1000`;
  const params = [...base, new Date(end).toISOString()];
  const [kinds, levels, mttr, servers, dies, availability] = await Promise.all([
    pool.query<{ kind: FaultKind; n: string }>(`select kind, count(*) n from fault_events f where ${window} group by 1 order by 2 desc`, base),
    pool.query<{ level: FaultLevel; n: string }>(`select level, count(*) n from fault_events f where ${window} group by 1 order by 2 desc`, base),
    pool.query<{ mttr: number | null; recovered: string; open: string }>(
      `select avg(extract(epoch from (e.ended - e.began)) * 1000) filter (where e.ended is not null) as mttr,
         count(*) filter (where e.ended is not null) as recovered, count(*) filter (where e.ended is null) as open
       from (select min(f.began_at) began, case when bool_or(f.ended_at is null) then null else max(f.ended_at) end ended
             from fault_events f where ${window} group by f.episode_id) e`,
      base,
    ),
    pool.query<{ server_id: string; n: string; ms: number }>(
      `select s.server_id, count(*) n, sum(${covered}) ms from fault_events f join servers s on s.id = f.server_ref
       where ${window} group by 1 order by 2 desc, 3 desc limit 10`,
      params,
    ),
    pool.query<{ server_id: string; device_id: number; n: string; ms: number }>(
      `select s.server_id, d.device_id, count(*) n, sum(${covered}) ms from fault_events f
       join devices d on d.id = f.device_ref join servers s on s.id = d.server_ref
       where ${window} group by 1, 2 order by 3 desc, 4 desc limit 10`,
      params,
    ),
    pool.query<{ super_pod_id: string | null; dies: string; ms: number | null }>(
      `with pods as (
         select s.super_pod_ref, count(d.id) dies from servers s join devices d on d.server_ref = s.id where s.cluster_id = $1 group by 1
       ), faulty as (
         -- One die's faulty time is the union of its faulty events; summing per episode is close enough for pods.
         select f.super_pod_ref, sum(${covered}) ms from fault_events f
         where ${window} and f.device_ref is not null and f.level = any($6::fault_level[]) group by 1
       )
       select p.super_pod_id, pods.dies, faulty.ms from pods left join super_pods p on p.id = pods.super_pod_ref
       left join faulty on faulty.super_pod_ref is not distinct from pods.super_pod_ref order by p.position nulls first`,
      [...params, faultyLevels],
    ),
  ]);
  const spanMs = Math.max(1, end - from);
  return {
    from,
    to,
    byKind: kinds.rows.map((r) => ({ kind: r.kind, count: Number(r.n) })),
    byLevel: levels.rows.map((r) => ({ level: r.level, count: Number(r.n) })),
    mttrMs: mttr.rows[0]?.mttr === null || mttr.rows[0]?.mttr === undefined ? null : Number(mttr.rows[0].mttr),
    recovered: Number(mttr.rows[0]?.recovered ?? 0),
    open: Number(mttr.rows[0]?.open ?? 0),
    topServers: servers.rows.map((r) => ({ serverId: r.server_id, count: Number(r.n), faultMs: Number(r.ms) })),
    topDies: dies.rows.map((r) => ({ serverId: r.server_id, deviceId: r.device_id, count: Number(r.n), faultMs: Number(r.ms) })),
    availability: availability.rows.map((r) => {
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

/**
 * Retention: deletes events that ended before `before`, `batchSize` rows per statement (each its own short
 * transaction, so ingestion is never blocked for long). Returns the number deleted.
 */
export async function pruneFaultEvents(pool: pg.Pool, clusterId: number, before: number, batchSize = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `delete from fault_events where id in (
         select id from fault_events where cluster_id = $1 and began_at < $2::timestamptz and ended_at is not null and ended_at < $2::timestamptz
         limit $3 for update skip locked)`,
      [clusterId, new Date(before).toISOString(), batchSize],
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) return deleted;
  }
}
