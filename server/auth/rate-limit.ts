import "server-only";
import { appDatabase, type Database } from "@/db/client";
import { clearRateLimits, hitRateLimit, pruneRateLimits } from "@/db/queries/rate-limits";

/**
 * A fixed-window counter per key, kept in PostgreSQL (rate_limit_windows, db/queries/rate-limits.ts) so the limit
 * holds across every instance sharing the database: one upsert per hit, one row per key. Ended windows are pruned
 * by whichever instance notices first, at most once a window per process, without the caller waiting.
 */
export class RateLimiter {
  private lastPrune = Date.now();

  constructor(
    /** Prefix of the limiter's keys in the shared table. */
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly database: () => Database = () => appDatabase().db,
  ) {}

  /** Counts a hit; resolves to 0 when allowed, otherwise the ms until the window ends (at least 1). */
  async hit(key: string): Promise<number> {
    const db = this.database();
    const { hits, remainingMs } = await hitRateLimit(db, `${this.name}:${key}`, this.windowMs);
    if (Date.now() - this.lastPrune >= this.windowMs) {
      this.lastPrune = Date.now();
      pruneRateLimits(db).catch(() => {}); // the next prune retries; a failed one costs nothing
    }
    return hits > this.limit ? Math.max(1, remainingMs) : 0;
  }

  /** Forgets this limiter's counts (tests). */
  async reset(): Promise<void> {
    await clearRateLimits(this.database(), `${this.name}:`);
  }
}

const globalForLimits = globalThis as typeof globalThis & { rankscopeLimits?: { tokenWrites: RateLimiter; signIn: RateLimiter } };

/**
 * Token-authenticated writes: 1,800 a minute per token, 30 a second, so one fault feeder posting batches of 1,000 can
 * sustain 30,000 events a second while a runaway script is still stopped.
 * Sign-in attempts: 30 a minute per client address, on top of the per-account back-off.
 */
export const limits = (globalForLimits.rankscopeLimits ??= {
  tokenWrites: new RateLimiter("token-writes", Number(process.env.RANKSCOPE_TOKEN_WRITES_PER_MINUTE ?? 1800), 60_000),
  signIn: new RateLimiter("sign-in", Number(process.env.RANKSCOPE_SIGN_INS_PER_MINUTE ?? 30), 60_000),
});
