import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Failed sign-ins per username and per client address, for the back-off (lib/auth/backoff.ts). */
export const signInThrottle = pgTable("sign_in_throttle", {
  /** `user:<name>` or `ip:<address>` */
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});
