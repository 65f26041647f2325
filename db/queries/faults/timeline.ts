import type pg from "pg";
import type { DensityBucket, TimelineEvent, TimelineResult } from "@/lib/faults/api-types";
import type { FaultLevel } from "@/lib/faults/levels";
import type { EscalationRule, FaultKind, FaultSource, TargetKind } from "@/lib/faults/model";
import { filterServerId, targetFilterOf, type TargetFilter } from "@/lib/faults/target-filter";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import type { TimelineQuery } from "../../schema/fault-event/validation";
import { refreshOpenEscalations } from "./health";
import { jobAtEventJoin, jobFilterSql } from "./job-filter";
import { ceilTo, hourMs, rollupRead, runningAt, splitPeriod, SqlParams } from "./rollups";
import { escaped, ms, msOf, msOrNone, numberOf, numberOrNone, textOf, textOrNone, unescaped } from "./packed-text";
import { loadServerDies, loadTargetIndex, serverTargets, type TargetIndex } from "./target-index";

interface Filters {
  clause: string;
  params: SqlParams;
}

/** The timeline's target filter over the cached inventory: a known server or die exactly, anything else by substring. */
async function targetFilterIn(pool: pg.Pool, index: TargetIndex, text: string): Promise<TargetFilter> {
  await loadServerDies(pool, [index.servers.get(filterServerId(text))]);
  return targetFilterOf(text, (serverId) => {
    const server = index.servers.get(serverId);
    return server && serverTargets(server);
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
  if (query.job) parts.push(jobFilterSql(params.add(query.job)));
  return { clause: parts.join(" and "), params };
}

/** About 240 buckets over the window; whole hours from an hour up, so they can be read from the hourly rollups. */
function densityBucketMs(from: number, to: number): number {
  const minutes = Math.max(60_000, Math.ceil((to - from) / 240 / 60_000) * 60_000);
  return minutes < hourMs ? minutes : ceilTo(minutes, hourMs);
}

/**
 * Events per bucket (aligned to UTC, an event in the bucket where it enters the window) and level. Filters the hourly
 * rollups know (kind, level) are read from them for the window's whole hours that are not stale (rollupRead); finer
 * filters read fault_events.
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
  const p = new SqlParams();
  const read = rollupRead(p, "stale", clusterId, from, to, split, hourMs);
  const kinds = query.kind?.length ? p.add(query.kind) : null;
  const levels = query.level?.length ? p.add(query.level) : null;
  const filtered = (alias: string) =>
    (kinds ? ` and ${alias}kind = any(${kinds}::fault_kind[])` : "") + (levels ? ` and ${alias}level = any(${levels}::fault_level[])` : "");
  const { rows } = await pool.query<{ bucket: Date; level: FaultLevel; n: string }>(
    `with ${read.cte}
     select ${bucketOf("x.at")} as bucket, x.level, sum(x.n) as n from (
       select hour as at, level, events as n from fault_hour_rollups
       where cluster_id = ${p.add(clusterId)} and hour >= ${p.at(split.fullFrom)} and hour < ${p.at(split.fullTo)} and ${read.clean("hour")}${filtered("")}
       union all
       select greatest(f.began_at, ${p.at(from)}), f.level, 1 from ${read.events} where true${filtered("f.")}
     ) x group by 1, 2 order by 1`,
    p.values,
  );
  return rows;
}

/**
 * The timeline of a window. The density (events per time bucket and level) covers every matching event and gives
 * the total; the rows are at most `limit` of them, read without a global sort or window function so a big window
 * stops reading early (rows come in the BRIN's physical, roughly time order; sorted here). Targets are named from
 * the cached inventory index instead of joins, but for a die's device id (a join on its key: the index keeps the
 * servers, not every die). Measured at 10M events: scripts/bench/fault-queries.ts.
 */
export async function listTimeline(pool: pg.Pool, cluster: ClusterHeader, query: TimelineQuery, now = Date.now()): Promise<TimelineResult> {
  const from = query.from;
  const to = Math.max(query.to, from + 1);
  await refreshOpenEscalations(pool, cluster.id, now);
  const index = await loadTargetIndex(pool, cluster);
  const target = query.target ? await targetFilterIn(pool, index, query.target) : null;
  const { clause, params } = filters(cluster.id, query, target, from, to);
  const bucketMs = densityBucketMs(from, to);
  const [packed, density] = await Promise.all([
    // The events as one text (packed-text.ts): as 20,000 rows of 24 fields, node-postgres took most of the call's CPU.
    pool.query<{ packed: string | null }>(
      `select string_agg(line, E'\\n') as packed from (
         select concat_ws(',', ${escaped("f.id")}, f.target_kind, ${escaped("f.target_key")}, ${numberOrNone("f.super_pod_ref")}, ${numberOrNone("f.server_ref")},
           ${numberOrNone("dv.device_id")}, ${numberOrNone("f.npu_index")}, ${textOrNone("case when f.target_kind = 'switch' then f.raw->'fabric'->>'plane' end")},
           f.kind, f.source, ${textOrNone("f.code")}, ${textOrNone("f.phase")}, f.reported_level, f.level, f.rule, ${msOrNone("f.rule_at")},
           ${msOrNone("f.release_at")}, ${escaped("f.episode_id")}, ${ms("f.began_at")}, ${msOrNone("f.ended_at")},
           ${textOrNone("coalesce(f.job, placed_job.job_name)")}, ${numberOrNone("coalesce(f.rank, placed_job.job_rank)")}, ${textOrNone("f.message")}) as line
         from fault_events f ${jobAtEventJoin} left join devices dv on dv.id = f.device_ref
         where ${clause}
         limit ${query.limit}) x`,
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
  const events: TimelineEvent[] = [];
  for (const line of packed.rows[0]?.packed?.split("\n") ?? []) {
    const [id, targetKind, targetKey, superPodRef, serverRef, deviceId, npuIndex, planeKey, kind, source, code, phase, reportedLevel, level, rule, ruleAt, releaseAt, episodeId, beganAt, endedAt, job, rank, message] =
      line.split(",") as [string, ...string[]];
    const podRef = numberOf(superPodRef!);
    const serverOf = numberOf(serverRef!);
    events.push({
      id: unescaped(id),
      targetKind: targetKind as TargetKind,
      targetKey: unescaped(targetKey!),
      superPodId: podRef === null ? null : (podIds.get(podRef) ?? null),
      serverId: serverOf === null ? null : (index.serversByRef.get(serverOf)?.serverId ?? null),
      deviceId: numberOf(deviceId!),
      npuIndex: numberOf(npuIndex!),
      planeKey: textOf(planeKey!),
      kind: kind as FaultKind,
      source: source as FaultSource,
      code: textOf(code!),
      phase: textOf(phase!),
      reportedLevel: reportedLevel as FaultLevel,
      level: level as FaultLevel,
      rule: rule as EscalationRule,
      ruleAt: msOf(ruleAt!),
      releaseAt: msOf(releaseAt!),
      episodeId: unescaped(episodeId!),
      beganAt: Math.round(Number(beganAt)),
      endedAt: msOf(endedAt!),
      job: textOf(job!),
      rank: numberOf(rank!),
      message: textOf(message!),
    });
  }
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
