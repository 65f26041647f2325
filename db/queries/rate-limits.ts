import { sql } from "drizzle-orm";
import type { Database } from "../client";
import { rateLimitWindows } from "../schema";

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Until the current window ends. */
  remainingMs: number;
}

/**
 * Counts one hit against `key` in its fixed window of `windowMs` and answers the window's count: one statement, one
 * row per key, so every instance sharing the database counts together. A key's window begins at its first hit
 * after the previous one ended (as the in-process counter did), timed by the database's clock, not the instances'.
 * Concurrent hits on one key queue on its row, so none is lost and exactly `limit` get through.
 */
export async function hitRateLimit(db: Database, key: string, windowMs: number): Promise<RateLimitHit> {
  const window = sql`make_interval(secs => ${windowMs}::float8 / 1000)`;
  const { rows } = await db.execute<{ hits: number; remaining_ms: number }>(sql`
    insert into ${rateLimitWindows} as w (key, window_end, hits)
    values (${key}, statement_timestamp() + ${window}, 1)
    on conflict (key) do update set
      hits = case when w.window_end <= statement_timestamp() then 1 else w.hits + 1 end,
      window_end = case when w.window_end <= statement_timestamp() then excluded.window_end else w.window_end end
    returning w.hits, greatest(0, ceil(extract(epoch from w.window_end - clock_timestamp()) * 1000))::int as remaining_ms`);
  const row = rows[0];
  if (!row) throw new Error(`rate limit ${key}: the counter was not returned`);
  return { hits: row.hits, remainingMs: row.remaining_ms };
}

/** Forgets windows that have ended (their keys start afresh at the next hit anyway); returns how many. */
export async function pruneRateLimits(db: Database): Promise<number> {
  const { rowCount } = await db.execute(sql`delete from ${rateLimitWindows} where window_end < clock_timestamp()`);
  return rowCount ?? 0;
}

/** Forgets every counter whose key starts with `prefix` (tests, and an admin reset). */
export async function clearRateLimits(db: Database, prefix: string): Promise<void> {
  await db.execute(sql`delete from ${rateLimitWindows} where starts_with(key, ${prefix})`);
}
