import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Instance-wide settings the application creates itself (e.g. the session-signing secret). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
});
