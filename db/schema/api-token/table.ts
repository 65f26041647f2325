import { sql } from "drizzle-orm";
import { check, index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../user/table";

/** API tokens for machines: only the SHA-256 of the token is stored; `hint` is its first characters, for people. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    hint: text("hint").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    check("api_tokens_role", sql`${t.role} in ('viewer', 'editor', 'admin')`),
    check("api_tokens_name_not_blank", sql`length(trim(${t.name})) > 0`),
    check("api_tokens_hash_format", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
    index("api_tokens_created_at_idx").on(t.createdAt),
  ],
);
