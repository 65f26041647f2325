/**
 * Answers many callers share (issue 20, item 7: a hundred people looking at the same cluster ask the same questions):
 * concurrent asks for the same key share one computation (single flight; one at a time per key, so when the data
 * changes faster than an answer is computed, computations run back to back rather than pile up), and a finished
 * answer is reused while its revision is still the current one and it is younger than its maximum age. The revision is what
 * makes the answer correct (the caller says what it is: a data revision every instance learns of, so a cache per
 * process stays correct when another instance writes); the age bounds whatever changes without a new revision (time
 * passing). Nothing about who may see an answer is kept here: callers check that before they ask.
 */
export interface SharedAnswersOptions {
  /** At most this many answers are kept (the oldest go first). */
  maxEntries?: number;
  /** …and at most this much of them (`size` of each), so large answers cannot take the memory. */
  maxSize?: number;
  now?: () => number;
}

interface Entry<T> {
  revision: string;
  /** When the computation started: an answer is as old as the data it read. */
  at: number;
  maxAgeMs: number;
  value: T;
  size: number;
}

export interface Computed<T> {
  value: T;
  /** What it counts against `maxSize` (bytes, say). */
  size: number;
  /** How long it may be reused while the revision holds (ms). */
  maxAgeMs: number;
}

export class SharedAnswers<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly running = new Map<string, { revision: string; promise: Promise<T> }>();
  /** The computation that starts when the running one of its key ends. */
  private readonly queued = new Map<string, Promise<T>>();
  private total = 0;
  private readonly maxEntries: number;
  private readonly maxSize: number;
  private readonly now: () => number;
  /** Computations started (tests and benches read it). */
  computed = 0;

  constructor(options: SharedAnswersOptions = {}) {
    this.maxEntries = options.maxEntries ?? 64;
    this.maxSize = options.maxSize ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /**
   * The answer for `key` at the current revision (`revision()`, asked when a computation starts): a kept one, the
   * one being computed for it, or a new computation. At most one computation of a key runs at a time: a caller that
   * finds one running for an older revision waits for the next, which starts when it ends (so it reads data at least
   * as new as the caller asked for) and serves everyone who came meanwhile. A failed computation is not kept;
   * everyone who waited for it gets its error.
   */
  get(key: string, revision: () => string, compute: () => Promise<Computed<T>>): Promise<T> {
    const current = revision();
    const kept = this.fresh(key, current);
    if (kept) return Promise.resolve(kept.value);
    const running = this.running.get(key);
    if (!running) return this.start(key, current, compute);
    if (running.revision === current) return running.promise;
    const queued = this.queued.get(key);
    if (queued) return queued;
    const next = running.promise
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(key);
        return this.get(key, revision, compute);
      });
    this.queued.set(key, next);
    return next;
  }

  private fresh(key: string, revision: string): Entry<T> | undefined {
    const kept = this.entries.get(key);
    return kept && kept.revision === revision && this.now() - kept.at < kept.maxAgeMs ? kept : undefined;
  }

  private start(key: string, revision: string, compute: () => Promise<Computed<T>>): Promise<T> {
    const at = this.now();
    this.computed++;
    const settle = () => {
      if (this.running.get(key)?.promise === promise) this.running.delete(key);
    };
    const promise: Promise<T> = compute().then(
      (done) => {
        settle();
        this.keep(key, { revision, at, maxAgeMs: done.maxAgeMs, value: done.value, size: done.size });
        return done.value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    this.running.set(key, { revision, promise });
    return promise;
  }

  private keep(key: string, entry: Entry<T>): void {
    const before = this.entries.get(key);
    // A slower computation of an older revision finishing last does not replace a newer answer.
    if (before && before.at > entry.at) return;
    if (before) this.drop(key, before);
    if (entry.size > this.maxSize || entry.maxAgeMs <= 0) return;
    this.entries.set(key, entry);
    this.total += entry.size;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      this.drop(oldest, old);
    }
  }

  private drop(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.total -= entry.size;
  }
}
