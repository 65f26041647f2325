import { describe, expect, it } from "vitest";
import { afterFailure, remainingLockMs, pairBackoff, type ThrottleState } from "./backoff";

describe("sign-in back-off", () => {
  const start = new Date("2026-01-01T00:00:00Z");

  it("lets the first five failures through, then locks for doubling periods up to the cap", () => {
    let state: ThrottleState | undefined;
    const locks: number[] = [];
    for (let i = 0; i < 12; i++) {
      state = afterFailure(state, start, pairBackoff);
      locks.push(remainingLockMs(state, start) / 1000);
    }
    expect(locks).toEqual([0, 0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900]);
  });

  it("unlocks when the period has passed", () => {
    let state: ThrottleState | undefined;
    for (let i = 0; i < 6; i++) state = afterFailure(state, start, pairBackoff);
    expect(remainingLockMs(state, new Date(start.getTime() + 29_000))).toBe(1_000);
    expect(remainingLockMs(state, new Date(start.getTime() + 30_000))).toBe(0);
  });

  it("forgets failures older than an hour", () => {
    let state: ThrottleState | undefined;
    for (let i = 0; i < 6; i++) state = afterFailure(state, start, pairBackoff);
    const later = new Date(start.getTime() + 61 * 60_000);
    expect(afterFailure(state, later, pairBackoff)).toEqual({ failures: 1, lastFailureAt: later, lockedUntil: null });
  });
});
