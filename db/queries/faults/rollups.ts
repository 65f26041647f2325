import type pg from "pg";
import { isReplicaPool, ReplicaCannotAnswer } from "../../read-database";

/**
 * The statistics rollups (db/schema/fault-rollup/table.ts): kept fresh lazily. Triggers on fault_events append the
 * hours a statement touched to fault_rollup_dirty (cheap for ingestion: one INSERT per statement); a refresher after
 * ingestion recomputes the stale hours from fault_events (bounded: the events of those hours; one per cluster at a
 * time, server/faults/rollup-refresher.ts). Readers of statistics read rollups for the whole hours and days that are
 * not stale and fault_events for the stale ones (rollupRead) and for what rollups leave out: the partial hours and
 * days at its edges, events still going when it starts (began earlier), and open events or events running past its
 * end (their time inside the period depends on it). The carries (fault_hour_carries: what closed events on a die
 * run past later hour edges) are rebuilt with the hour the events began in, so an event's change touches one hour
 * however long it ran; a reader of carries at an edge refreshes every stale hour before it. Rebuilds insert their
 * rows in hour or day order, so a month's rows sit in few pages even after a rebuild of the whole history (hash
 * grouping would scatter them).
 */

export const hourMs = 3_600_000;
export const dayMs = 86_400_000;
/** Hours and days are UTC, whatever the session's time zone. */
const origin = "timestamptz '2000-01-01 00:00:00+00'";
/** pg_advisory_xact_lock(class, cluster): one refresher per cluster at a time. */
export const refreshLockClass = 730_211;

export const floorTo = (ms: number, grain: number) => Math.floor(ms / grain) * grain;
export const ceilTo = (ms: number, grain: number) => Math.ceil(ms / grain) * grain;
const iso = (ms: number) => new Date(ms).toISOString();

/** Positional parameters for SQL assembled from fragments. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  at(ms: number): string {
    return `${this.add(iso(ms))}::timestamptz`;
  }
}

/** An event's duration in ms (closed events). */
export const durationMs = "(extract(epoch from (f.ended_at - f.began_at)) * 1000)";

/**
 * Events of `f` that began before `t` and were still going at `t` (open, or ending after it), as three arms each
 * an index can answer: a one-hour BRIN range, the open events, and the events lasting an hour or more.
 */
export function runningAt(p: SqlParams, t: number): string {
  const at = p.at(t);
  const hourBefore = p.at(t - hourMs);
  return `((f.began_at >= ${hourBefore} and f.began_at < ${at} and (f.ended_at is null or f.ended_at > ${at}))
    or (f.ended_at is null and f.began_at < ${hourBefore})
    or (f.ended_at > ${at} and f.ended_at - f.began_at >= interval '1 hour' and f.began_at < ${hourBefore}))`;
}

/** Events of `f` that began in [from, to) and are open or end after `after`: those whose whole duration a rollup can't use. */
export function runningPast(p: SqlParams, from: number, to: number, after: number): string {
  const lo = p.at(from);
  const hi = p.at(to);
  const past = p.at(after);
  const recentFrom = p.at(Math.max(from, after - hourMs));
  return `((f.ended_at is null and f.began_at >= ${lo} and f.began_at < ${hi})
    or (f.began_at >= ${recentFrom} and f.began_at < ${hi} and f.ended_at > ${past})
    or (f.ended_at > ${past} and f.ended_at - f.began_at >= interval '1 hour' and f.began_at >= ${lo} and f.began_at < ${hi}))`;
}

/**
 * How a period [from, to) splits for rollups of `grain`: whole buckets [fullFrom, fullTo) read from rollups, the
 * rest from fault_events. With no whole bucket, fullFrom = fullTo = to.
 */
export function splitPeriod(from: number, to: number, grain: number): { fullFrom: number; fullTo: number } {
  const fullFrom = ceilTo(from, grain);
  const fullTo = floorTo(to, grain);
  return fullFrom < fullTo ? { fullFrom, fullTo } : { fullFrom: to, fullTo: to };
}

/** The events of the period that rollups of the split leave out (cluster condition included). */
function outsideRollups(p: SqlParams, clusterId: number, from: number, to: number, split: { fullFrom: number; fullTo: number }): string {
  return `f.cluster_id = ${p.add(clusterId)} and ((f.began_at >= ${p.at(from)} and f.began_at < ${p.at(split.fullFrom)})
    or (f.began_at >= ${p.at(split.fullTo)} and f.began_at < ${p.at(to)}) or ${runningAt(p, from)})`;
}

/**
 * Reading rollups without refreshing them first: in one statement (one snapshot), the buckets of `grain` in the
 * split's whole part that a stale hour falls in (`cte`, named `name`) are read from fault_events instead (`events`),
 * and the rollups of the rest (`clean`) are exact. A refresh deletes an hour's marks and rebuilds its rollups in one
 * transaction, and a change to fault_events marks its hours in its own, so a snapshot that sees no mark for an hour
 * sees its rollups equal to its events. So nobody waits for a refresh or writes to read (a replica answers too), and
 * the refresh runs off the readers' path (server/faults/rollup-refresher.ts).
 */
export interface RollupRead {
  /** The common table expression of the stale buckets (`at`), for the statement's `with`. */
  cte: string;
  /** Condition on a rollup's bucket column: not stale. */
  clean: (column: string) => string;
  /** Condition on an event `f`: it did not begin in a stale bucket (so a rollup holds it). */
  rolledUp: string;
  /** The events of `f` the rollups of the split leave out (outsideRollups) and those of the stale buckets, as `f`. */
  events: string;
}

export function rollupRead(p: SqlParams, name: string, clusterId: number, from: number, to: number, split: { fullFrom: number; fullTo: number }, grain: number): RollupRead {
  const interval = grain === dayMs ? "1 day" : "1 hour";
  const cluster = p.add(clusterId);
  const bucket = (t: string) => `date_bin('${interval}', ${t}, ${origin})`;
  return {
    cte: `${name} as materialized (select distinct ${bucket("hour")} as at from fault_rollup_dirty
      where cluster_id = ${cluster} and hour >= ${p.at(split.fullFrom)} and hour < ${p.at(split.fullTo)})`,
    clean: (column) => `${column} not in (select at from ${name})`,
    rolledUp: `${bucket("f.began_at")} not in (select at from ${name})`,
    events: `(select f.* from fault_events f where ${outsideRollups(p, clusterId, from, to, split)}
      union all select f.* from ${name} s join fault_events f
        on f.cluster_id = ${cluster} and f.began_at >= s.at and f.began_at < s.at + interval '${interval}') f`,
  };
}

/** Contiguous runs of bucket starts, as [from, to) ranges. */
function runs(starts: number[], grain: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (const start of [...new Set(starts)].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last[1] === start) last[1] = start + grain;
    else ranges.push([start, start + grain]);
  }
  return ranges;
}

/** Whether an event is a fault of its own (an episode of one event), not part of a flapping series. */
const singleEvent = `(f.episode_id = f.id and not exists (select 1 from fault_events c where c.episode_id = f.id and c.episode_id <> c.id))`;

async function rebuildHours(client: pg.PoolClient, clusterId: number, from: number, to: number): Promise<void> {
  const range = [clusterId, iso(from), iso(to)];
  await client.query("delete from fault_hour_rollups where cluster_id = $1 and hour >= $2::timestamptz and hour < $3::timestamptz", range);
  await client.query("delete from fault_episode_parts where cluster_id = $1 and hour >= $2::timestamptz and hour < $3::timestamptz", range);
  await client.query(
    `insert into fault_hour_rollups (cluster_id, hour, kind, level, super_pod_ref, events, die_closed_ms, single_recovered, single_recovered_ms, single_open)
     select $1, date_bin('1 hour', f.began_at, ${origin}), f.kind, f.level, f.super_pod_ref, count(*),
       coalesce(sum(${durationMs}) filter (where f.ended_at is not null and f.device_ref is not null), 0),
       count(*) filter (where f.single and f.ended_at is not null),
       coalesce(sum(${durationMs}) filter (where f.single and f.ended_at is not null), 0),
       count(*) filter (where f.single and f.ended_at is null)
     from (select f.*, ${singleEvent} as single from fault_events f
           where f.cluster_id = $1 and f.began_at >= $2::timestamptz and f.began_at < $3::timestamptz) f
     group by 2, 3, 4, 5 order by 2`,
    range,
  );
  await client.query("delete from fault_hour_carries where cluster_id = $1 and hour >= $2::timestamptz and hour < $3::timestamptz", range);
  // One row per later hour edge a closed event on a die runs past (g < ended_at: an event ending on an edge carries
  // nothing past it), in hour order like the rest.
  await client.query(
    `insert into fault_hour_carries (cluster_id, hour, edge, kind, level, super_pod_ref, after_ms)
     select $1, f.hour, g, f.kind, f.level, f.super_pod_ref, sum(extract(epoch from (f.ended_at - g)) * 1000)
     from (select date_bin('1 hour', f.began_at, ${origin}) as hour, f.* from fault_events f
           where f.cluster_id = $1 and f.began_at >= $2::timestamptz and f.began_at < $3::timestamptz and f.device_ref is not null
             and f.ended_at > date_bin('1 hour', f.began_at, ${origin}) + interval '1 hour') f
       cross join lateral generate_series(f.hour + interval '1 hour', f.ended_at, interval '1 hour') g
     where g < f.ended_at
     group by f.hour, g, f.kind, f.level, f.super_pod_ref order by f.hour, g`,
    range,
  );
  await client.query(
    `insert into fault_episode_parts (cluster_id, hour, episode_id, began_at, ended_at, open_events)
     select $1, date_bin('1 hour', f.began_at, ${origin}), f.episode_id, min(f.began_at), max(f.ended_at), count(*) filter (where f.ended_at is null)
     from fault_events f
     where f.cluster_id = $1 and f.began_at >= $2::timestamptz and f.began_at < $3::timestamptz and not ${singleEvent}
     group by 2, 3 order by 2`,
    range,
  );
}

async function rebuildDays(client: pg.PoolClient, clusterId: number, from: number, to: number): Promise<void> {
  const range = [clusterId, iso(from), iso(to)];
  await client.query("delete from fault_day_target_rollups where cluster_id = $1 and day >= $2::timestamptz and day < $3::timestamptz", range);
  await client.query(
    `insert into fault_day_target_rollups (cluster_id, day, server_ref, device_ref, events, closed_ms)
     select $1, date_bin('1 day', f.began_at, ${origin}), f.server_ref, f.device_ref, count(*),
       coalesce(sum(${durationMs}) filter (where f.ended_at is not null), 0)
     from fault_events f
     where f.cluster_id = $1 and f.began_at >= $2::timestamptz and f.began_at < $3::timestamptz
       and (f.server_ref is not null or f.device_ref is not null)
     group by 2, 3, 4 order by 2`,
    range,
  );
  await client.query("delete from fault_day_code_rollups where cluster_id = $1 and day >= $2::timestamptz and day < $3::timestamptz", range);
  await client.query(
    `insert into fault_day_code_rollups (cluster_id, day, code, events, closed_ms)
     select $1, date_bin('1 day', f.began_at, ${origin}), f.code, count(*), coalesce(sum(${durationMs}) filter (where f.ended_at is not null), 0)
     from fault_events f
     where f.cluster_id = $1 and f.began_at >= $2::timestamptz and f.began_at < $3::timestamptz and f.code is not null
     group by 2, 3 order by 2`,
    range,
  );
}

/** A refresh waiting for the running one of its cluster to end; callers who come meanwhile widen its period. */
interface Queued {
  from: number;
  to: number;
  promise: Promise<number>;
  start: (refresh: Promise<number>) => void;
}

/**
 * Per pool and cluster: the refresh running and the one that starts when it ends. Viewers ask for a refresh with
 * every timeline and statistics answer; with one refresh per caller they queued on the advisory lock, each holding a
 * connection and rebuilding the hours the one before had just rebuilt (issue 20, item 7: seconds of PostgreSQL each).
 */
const refreshes = new WeakMap<pg.Pool, Map<number, { running: Promise<number>; queued?: Queued }>>();

/**
 * Recomputes the cluster's stale hours that begin in [from, to) (every stale hour before `to` without `from`; every
 * stale hour when no period is given), and the days holding them. Returns how many hours were recomputed (by the
 * refresh the caller shared).
 *
 * One refresh of a cluster runs at a time in a process (and across processes: the advisory lock). A caller that finds
 * one running does not share it: it took the stale hours before the caller asked, and hours made stale since are
 * not in it. The caller shares the next one, which starts when the running one ends and covers the periods of all
 * who came meanwhile, so nobody reads rollups older than their call.
 */
export function refreshFaultRollups(pool: pg.Pool, clusterId: number, period?: { from?: number; to: number }): Promise<number> {
  const from = period?.from ?? -Infinity;
  const to = period?.to ?? Infinity;
  if (isReplicaPool(pool)) return refreshNow(pool, clusterId, from, to);
  const byCluster = refreshes.get(pool) ?? refreshes.set(pool, new Map()).get(pool)!;
  const state = byCluster.get(clusterId);
  if (!state) {
    const entry = { running: refreshNow(pool, clusterId, from, to), queued: undefined as Queued | undefined };
    const settle = () => {
      const next = entry.queued;
      entry.queued = undefined;
      if (!next) return void byCluster.delete(clusterId);
      entry.running = refreshNow(pool, clusterId, next.from, next.to);
      entry.running.then(settle, settle);
      next.start(entry.running);
    };
    byCluster.set(clusterId, entry);
    entry.running.then(settle, settle);
    return entry.running;
  }
  if (state.queued) {
    state.queued.from = Math.min(state.queued.from, from);
    state.queued.to = Math.max(state.queued.to, to);
    return state.queued.promise;
  }
  let start!: Queued["start"];
  const promise = new Promise<number>((resolve) => (start = resolve));
  state.queued = { from, to, promise, start };
  return promise;
}

/**
 * Recomputes every stale hour of the cluster unless a refresh of it runs already (in any process: the advisory lock,
 * not waited for), for the refresher that runs after ingestion (server/faults/rollup-refresher.ts): readers do not need
 * it (rollupRead), it keeps what they read from fault_events small. Returns the hours recomputed, or null when busy.
 */
export function refreshFaultRollupsUnlessBusy(pool: pg.Pool, clusterId: number): Promise<number | null> {
  return refreshNow(pool, clusterId, -Infinity, Infinity, false);
}

async function refreshNow(pool: pg.Pool, clusterId: number, periodFrom: number, periodTo: number): Promise<number>;
async function refreshNow(pool: pg.Pool, clusterId: number, periodFrom: number, periodTo: number, wait: false): Promise<number | null>;
async function refreshNow(pool: pg.Pool, clusterId: number, periodFrom: number, periodTo: number, wait = true): Promise<number | null> {
  const period = Number.isFinite(periodTo) ? { to: periodTo, ...(Number.isFinite(periodFrom) ? { from: periodFrom } : {}) } : undefined;
  const staleFilter = `cluster_id = $1${period ? " and hour < $2::timestamptz" : ""}${period?.from !== undefined ? " and hour >= $3::timestamptz" : ""}`;
  const staleParams = [clusterId, ...(period ? [iso(period.to)] : []), ...(period?.from !== undefined ? [iso(period.from)] : [])];
  if (isReplicaPool(pool)) {
    // The replica's rollups are exact when none of the hours asked for is stale there; rebuilding them is the primary's.
    const { rows } = await pool.query<{ stale: boolean }>(`select exists (select 1 from fault_rollup_dirty where ${staleFilter}) as stale`, staleParams);
    if (rows[0]?.stale) throw new ReplicaCannotAnswer("fault rollups of the period are stale");
    return 0;
  }
  const client = await pool.connect();
  try {
    await client.query("begin");
    if (wait) await client.query("select pg_advisory_xact_lock($1, $2)", [refreshLockClass, clusterId]);
    else {
      const { rows: locked } = await client.query<{ ok: boolean }>("select pg_try_advisory_xact_lock($1, $2) as ok", [refreshLockClass, clusterId]);
      if (!locked[0]?.ok) {
        await client.query("rollback");
        return null;
      }
    }
    const { rows } = await client.query<{ hour: Date }>(`delete from fault_rollup_dirty where ${staleFilter} returning hour`, staleParams);
    const hours = rows.map((r) => r.hour.getTime());
    for (const [from, to] of runs(hours, hourMs)) await rebuildHours(client, clusterId, from, to);
    for (const [from, to] of runs(hours.map((h) => floorTo(h, dayMs)), dayMs)) await rebuildDays(client, clusterId, from, to);
    await client.query("commit");
    return new Set(hours).size;
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    client.release();
  }
}
