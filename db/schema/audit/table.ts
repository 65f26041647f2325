import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Who did what, when and from where. Append-only: a trigger (migration 0002) rejects UPDATE, DELETE and TRUNCATE,
 * so no application code path can rewrite history.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).defaultNow().notNull(),
    /** user | token | system | anonymous */
    actorType: text("actor_type").notNull(),
    /** User id or token id; null for system and anonymous. */
    actorId: text("actor_id"),
    /** Username, token name, "system", or the username someone tried. */
    actorName: text("actor_name"),
    /** e.g. auth.sign_in, auth.sign_in_failed, user.create, token.revoke, cluster.update */
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** For changes: the changed fields only, before and after. */
    before: jsonb("before"),
    after: jsonb("after"),
    details: jsonb("details"),
  },
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_action_idx").on(t.action), index("audit_log_actor_idx").on(t.actorName)],
);
