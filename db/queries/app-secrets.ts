import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../client";
import { appSettings } from "../schema";

/** Secrets the app keeps in app_settings, by key. */
const authSecretKey = "auth_secret";

/**
 * The secret that signs session cookies: BETTER_AUTH_SECRET when set, otherwise one generated on first start and
 * kept in the database, so every instance sharing the database (and every restart) signs the same way.
 */
export async function ensureAuthSecret(db: Database): Promise<string> {
  const configured = process.env.BETTER_AUTH_SECRET;
  if (configured) return configured;
  await db
    .insert(appSettings)
    .values({ key: authSecretKey, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, authSecretKey));
  if (!row) throw new Error("the session secret could not be stored");
  return row.value;
}
