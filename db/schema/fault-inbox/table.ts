import { bigint, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Batches of fault events accepted with `Prefer: respond-async` (POST /api/v1/fault-events) and not judged yet: one
 * row per batch, written in one statement before the 202, so an acknowledged batch is committed. The inbox judge
 * (db/queries/faults/inbox.ts) takes them in `id` order, judges many at a time through ingestFaultEvents and deletes
 * them in the transaction that writes their events. Logged (not UNLOGGED): a crash must not lose an acknowledged batch.
 */
export const faultInbox = pgTable("fault_inbox", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  /** Who posted it: the judgement's audit entry names them. */
  actor: jsonb("actor").notNull(),
  /** The number of events in `items`. */
  events: integer("events").notNull(),
  /** The items that passed validation on receipt, as the JSON array text they came in (compact). */
  items: text("items").notNull(),
  /** Each stored item's index in the posted batch, when items were left out (`atomic=item` with invalid ones). */
  positions: integer("positions").array(),
});
