import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Fixed-window rate-limit counters shared by every Rankscope instance on the database (token writes, sign-in
 * bursts): one row per key, holding the current window only (db/queries/rate-limits.ts). UNLOGGED (migration
 * 0011): no WAL per hit, not replicated, emptied after a crash, which only forgets the current minute's counts.
 */
export const rateLimitWindows = pgTable("rate_limit_windows", {
  /** `<limiter>:<subject>`, e.g. `token-writes:token:42`, `sign-in:ip:10.0.0.7` */
  key: text("key").primaryKey(),
  /** When the current window ends: the count starts again from there, and the row can be pruned. */
  windowEnd: timestamp("window_end", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});
