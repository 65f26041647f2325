import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The live event streams (GET /api/v1/events) of every instance, one row each, so that the per-user cap counts a
 * user's streams on all instances together (db/queries/event-stream-leases.ts). A row is a lease: its instance
 * renews it while the stream is open and deletes it when the stream ends; a killed instance renews nothing, so its
 * rows stop counting once `expires_at` passes. UNLOGGED (as rate_limit_windows): no WAL per stream, not replicated,
 * emptied after a crash, when every stream is gone anyway.
 */
export const eventStreamLeases = pgTable(
  "event_stream_leases",
  {
    id: uuid("id").primaryKey(),
    /** `user:<id>` or `token:<id>` */
    owner: text("owner").notNull(),
    /** The process holding the stream (a random id per server process). */
    instanceId: text("instance_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("event_stream_leases_owner_idx").on(t.owner, t.expiresAt), index("event_stream_leases_expires_at_idx").on(t.expiresAt)],
);
