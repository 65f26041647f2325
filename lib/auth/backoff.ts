/**
 * Back-off after failed sign-ins, counted per (username, client address), per address and per username. The first
 * few failures are free (typos); after that every further failure locks the key for twice as long as the last, up to
 * a cap. A success clears the (username, address) count. Failures older than `forgetAfterMs` are forgotten.
 */
export interface BackoffPolicy {
  freeFailures: number;
  baseLockMs: number;
  maxLockMs: number;
  forgetAfterMs: number;
}

/** One username from one address: what a user who mistypes, or a guesser at one address, runs into. */
export const pairBackoff: BackoffPolicy = { freeFailures: 5, baseLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };
/**
 * One username from all addresses (a guesser rotating addresses): generous, and not applied from an address where
 * the user signed in lately, so failures from elsewhere cannot lock a user out of their usual desk.
 */
export const accountBackoff: BackoffPolicy = { freeFailures: 50, baseLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };
/** An address may be shared (NAT, a jump host), so it gets more room before it is slowed down. */
export const addressBackoff: BackoffPolicy = { freeFailures: 20, baseLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };

export interface ThrottleState {
  failures: number;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

/** How long the key is still locked at `now`, in ms (0: not locked). */
export function remainingLockMs(state: ThrottleState | undefined, now: Date): number {
  if (!state?.lockedUntil) return 0;
  return Math.max(0, state.lockedUntil.getTime() - now.getTime());
}

/** The state after one more failure at `now`. */
export function afterFailure(state: ThrottleState | undefined, now: Date, policy: BackoffPolicy): ThrottleState {
  const stale = !state || now.getTime() - state.lastFailureAt.getTime() > policy.forgetAfterMs;
  const failures = (stale ? 0 : state.failures) + 1;
  const over = failures - policy.freeFailures;
  const lockMs = over > 0 ? Math.min(policy.maxLockMs, policy.baseLockMs * 2 ** (over - 1)) : 0;
  return { failures, lastFailureAt: now, lockedUntil: lockMs > 0 ? new Date(now.getTime() + lockMs) : null };
}
