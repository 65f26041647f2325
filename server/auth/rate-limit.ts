import "server-only";

/**
 * A fixed-window counter per key, in memory. Enough for one Rankscope process; several instances behind a load
 * balancer each count on their own (the limit then applies per instance).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts a hit; returns 0 when allowed, otherwise the ms until the window ends. */
  hit(key: string, now = Date.now()): number {
    const current = this.windows.get(key);
    if (!current || now - current.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.prune(now);
      this.windows.set(key, { start: now, count: 1 });
      return 0;
    }
    current.count++;
    return current.count > this.limit ? current.start + this.windowMs - now : 0;
  }

  reset(): void {
    this.windows.clear();
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

const globalForLimits = globalThis as typeof globalThis & { rankscopeLimits?: { tokenWrites: RateLimiter; signIn: RateLimiter } };

/**
 * Token-authenticated writes: 1,800 a minute per token, 30 a second, so one fault feeder posting batches of 1,000 can
 * sustain 30,000 events a second while a runaway script is still stopped.
 * Sign-in attempts: 30 a minute per client address, on top of the per-account back-off.
 */
export const limits = (globalForLimits.rankscopeLimits ??= {
  tokenWrites: new RateLimiter(Number(process.env.RANKSCOPE_TOKEN_WRITES_PER_MINUTE ?? 1800), 60_000),
  signIn: new RateLimiter(Number(process.env.RANKSCOPE_SIGN_INS_PER_MINUTE ?? 30), 60_000),
});
