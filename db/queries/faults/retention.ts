import type pg from "pg";
import { retentionBatchSize, retentionCutoff, type RetentionSettings } from "@/lib/faults/retention";
import { refreshFaultRollups } from "./rollups";
import { getFaultSettings } from "./settings";

/** pg_try_advisory_lock key: one retention runner per database, however many servers share it. */
const retentionLockKey = 7_302_114_520;

/** A cluster's retention (the defaults until set): part of its fault settings. */
export async function getRetention(pool: pg.Pool | pg.PoolClient, clusterId: number): Promise<RetentionSettings> {
  const { retentionDays, retentionMode } = await getFaultSettings(pool, clusterId);
  return { days: retentionDays, mode: retentionMode };
}

export interface RetentionOptions {
  now?: number;
  batchSize?: number;
  /** Stops between batches (server shutdown); what was done stays done. */
  signal?: AbortSignal;
}

export interface RetentionResult {
  cutoff: number;
  mode: RetentionSettings["mode"];
  /** Events deleted, or moved to fault_event_archive. */
  events: number;
  batches: number;
}

/** fault_events' columns, which the archive must all have: archiving never drops a column silently. */
async function archiveColumns(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ name: string; archived: boolean }>(
    `select e.column_name as name, a.column_name is not null as archived
     from information_schema.columns e
     left join information_schema.columns a on a.table_schema = e.table_schema and a.table_name = 'fault_event_archive' and a.column_name = e.column_name
     where e.table_schema = current_schema() and e.table_name = 'fault_events' order by e.ordinal_position`,
  );
  const missing = rows.filter((r) => !r.archived).map((r) => r.name);
  if (missing.length) throw new Error(`fault_event_archive lacks column(s) ${missing.join(", ")} of fault_events: add them in a migration before archiving`);
  return rows.map((r) => `"${r.name}"`).join(", ");
}

/**
 * Deletes or archives a cluster's events that ended before the retention cutoff, hour by hour of their beginning,
 * `batchSize` rows per statement (each its own short transaction; rows an ingestion holds are skipped and taken
 * next time), so ingestion never waits on it. Open events are kept. Then refreshes the cluster's stale rollups.
 */
export async function applyRetention(pool: pg.Pool, clusterId: number, settings: RetentionSettings, options: RetentionOptions = {}): Promise<RetentionResult> {
  const { now = Date.now(), batchSize = retentionBatchSize, signal } = options;
  const cutoff = retentionCutoff(settings, now);
  const cutoffIso = new Date(cutoff).toISOString();
  // Every hour an event began in is in the rollups or still marked stale: together, where old events can be.
  const { rows: hours } = await pool.query<{ hour: Date }>(
    `select hour from fault_hour_rollups where cluster_id = $1 and hour < $2::timestamptz
     union select hour from fault_rollup_dirty where cluster_id = $1 and hour < $2::timestamptz order by 1`,
    [clusterId, cutoffIso],
  );
  const columns = settings.mode === "archive" ? await archiveColumns(pool) : "";
  const candidates = `select id from fault_events where cluster_id = $1 and began_at >= $2::timestamptz and began_at < $3::timestamptz
    and ended_at < $4::timestamptz limit $5 for update skip locked`;
  // Counted by the rows deleted: an event already in the archive (taken in again after archiving) is stored once,
  // its second copy dropped by the archive's key, and still leaves fault_events.
  const statement =
    settings.mode === "archive"
      ? `with moved as (delete from fault_events where id in (${candidates}) returning ${columns}),
         archived as (insert into fault_event_archive (${columns}) select ${columns} from moved on conflict (id) do nothing)
         select count(*)::int as moved from moved`
      : `with moved as (delete from fault_events where id in (${candidates}) returning 1) select count(*)::int as moved from moved`;
  let events = 0;
  let batches = 0;
  for (const { hour } of hours) {
    const slice = [clusterId, hour.toISOString(), new Date(Math.min(hour.getTime() + 3_600_000, cutoff)).toISOString(), cutoffIso, batchSize];
    for (;;) {
      signal?.throwIfAborted();
      const { rows } = await pool.query<{ moved: number }>(statement, slice);
      const moved = rows[0]?.moved ?? 0;
      if (moved > 0) batches++;
      events += moved;
      if (moved < batchSize) break;
    }
  }
  // Every stale hour, not only those retention touched: run hourly, this keeps the stale-hour log short and the
  // rollups ready for the next read.
  await refreshFaultRollups(pool, clusterId);
  return { cutoff, mode: settings.mode, events, batches };
}

/**
 * Applies every cluster's retention, unless another process is already doing it (then returns null). Also drops
 * stale-hour marks of clusters that no longer exist.
 */
export async function runRetention(pool: pg.Pool, options: Omit<RetentionOptions, "batchSize"> = {}): Promise<Map<string, RetentionResult> | null> {
  const lock = await pool.connect();
  try {
    const { rows } = await lock.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [retentionLockKey]);
    if (!rows[0]?.locked) return null;
    try {
      await pool.query("delete from fault_rollup_dirty d where not exists (select 1 from clusters c where c.id = d.cluster_id)");
      const { rows: clusters } = await pool.query<{ id: number; slug: string }>("select id, slug from clusters order by id");
      const results = new Map<string, RetentionResult>();
      for (const cluster of clusters) results.set(cluster.slug, await applyRetention(pool, cluster.id, await getRetention(pool, cluster.id), options));
      return results;
    } finally {
      await lock.query("select pg_advisory_unlock($1)", [retentionLockKey]);
    }
  } finally {
    lock.release();
  }
}
