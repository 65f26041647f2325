import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import { accountBackoff, addressBackoff, afterFailure, pairBackoff, remainingLockMs, type BackoffPolicy } from "@/lib/auth/backoff";
import type { Database } from "../client";
import { auditLog, signInThrottle } from "../schema";
import { recordAudit, type AuditActor } from "./audit";

export interface ThrottleKey {
  key: string;
  policy: BackoffPolicy;
}

/** How long an address where a user signed in stays "their usual address", exempt from the account-wide lock. */
export const usualAddressDays = 30;

const pairPrefix = (username: string) => `user-ip:${username}@`;

/**
 * The back-off keys of a sign-in attempt: the (username, address) pair, which is what locks a user out after a few
 * wrong passwords, only from that address; the address across all usernames (a guesser trying many accounts); and
 * the account across all addresses (many addresses guessing one password), which does not apply from an address
 * where the user signed in lately, so nobody can lock a user out of their usual desk by failing from elsewhere.
 */
export function signInKeys(username: string, address: string): { pair: ThrottleKey; address: ThrottleKey; account: ThrottleKey } {
  return {
    pair: { key: `${pairPrefix(username)}${address}`, policy: pairBackoff },
    address: { key: `ip:${address}`, policy: addressBackoff },
    account: { key: `user:${username}`, policy: accountBackoff },
  };
}

/** Whether the user signed in successfully from this address within the last `usualAddressDays` days. */
export async function isUsualAddress(db: Database, username: string, address: string, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - usualAddressDays * 86_400_000);
  const [row] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.actorName, username), eq(auditLog.action, "auth.sign_in"), eq(auditLog.ip, address), gt(auditLog.at, since)))
    .limit(1);
  return row !== undefined;
}

/** The longest remaining lock among the keys, in ms (0: sign-in may be tried). */
export async function signInLockMs(db: Database, keys: ThrottleKey[], now = new Date()): Promise<number> {
  const rows = await db.select().from(signInThrottle).where(inArray(signInThrottle.key, keys.map((k) => k.key)));
  return Math.max(0, ...rows.map((row) => remainingLockMs(row, now)));
}

/** Counts one failure against every key; returns the longest lock that now applies among `locking`, in ms. */
export async function recordSignInFailure(db: Database, keys: ThrottleKey[], locking: ThrottleKey[] = keys, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    let lockMs = 0;
    for (const { key, policy } of keys) {
      const [row] = await tx.select().from(signInThrottle).where(eq(signInThrottle.key, key)).for("update");
      const next = afterFailure(row, now, policy);
      await tx
        .insert(signInThrottle)
        .values({ key, ...next })
        .onConflictDoUpdate({ target: signInThrottle.key, set: next });
      if (locking.some((k) => k.key === key)) lockMs = Math.max(lockMs, remainingLockMs(next, now));
    }
    return lockMs;
  });
}

export async function clearSignInFailures(db: Database, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}

/**
 * Admin unlock: forgets the user's failed sign-ins, account-wide and from every address, so the right password
 * works at once from anywhere (per-address limits stay: they are about the address, not the user). Audited as
 * `user.unlock` with the number of failures forgotten.
 */
export async function unlockSignIn(db: Database, user: { id: string; username: string }, actor: AuditActor): Promise<{ cleared: number }> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(signInThrottle)
      .where(or(eq(signInThrottle.key, `user:${user.username}`), sql`starts_with(${signInThrottle.key}, ${pairPrefix(user.username)})`))
      .returning({ failures: signInThrottle.failures, lockedUntil: signInThrottle.lockedUntil });
    const cleared = removed.reduce((sum, row) => sum + row.failures, 0);
    const wasLocked = removed.some((row) => row.lockedUntil !== null && row.lockedUntil.getTime() > Date.now());
    await recordAudit(tx, { actor, action: "user.unlock", target: { type: "user", id: user.id }, details: { failuresCleared: cleared, wasLocked } });
    return { cleared };
  });
}
