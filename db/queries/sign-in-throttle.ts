import { eq, inArray } from "drizzle-orm";
import { afterFailure, remainingLockMs, type BackoffPolicy } from "@/lib/auth/backoff";
import type { Database } from "../client";
import { signInThrottle } from "../schema";

export interface ThrottleKey {
  key: string;
  policy: BackoffPolicy;
}

/** The longest remaining lock among the keys, in ms (0: sign-in may be tried). */
export async function signInLockMs(db: Database, keys: ThrottleKey[], now = new Date()): Promise<number> {
  const rows = await db.select().from(signInThrottle).where(inArray(signInThrottle.key, keys.map((k) => k.key)));
  return Math.max(0, ...rows.map((row) => remainingLockMs(row, now)));
}

/** Counts one failure against every key; returns the longest lock that now applies, in ms. */
export async function recordSignInFailure(db: Database, keys: ThrottleKey[], now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    let lockMs = 0;
    for (const { key, policy } of keys) {
      const [row] = await tx.select().from(signInThrottle).where(eq(signInThrottle.key, key)).for("update");
      const next = afterFailure(row, now, policy);
      await tx
        .insert(signInThrottle)
        .values({ key, ...next })
        .onConflictDoUpdate({ target: signInThrottle.key, set: next });
      lockMs = Math.max(lockMs, remainingLockMs(next, now));
    }
    return lockMs;
  });
}

export async function clearSignInFailures(db: Database, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}
