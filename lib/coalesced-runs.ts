/**
 * Background work per key that many requests ask for and one run satisfies (issue 20, item 7: the rollup refresh
 * after ingested batches): asked for, a run starts `delayMs` later, and every ask meanwhile is served by it; asked for
 * while it runs, one more run starts `delayMs` after it ends (it may have begun before what the ask is about). So
 * runs of a key never overlap, there is at most one every `delayMs` plus its duration however often it is asked for,
 * and every ask is followed by a run that starts after it.
 */
export interface CoalescedRunsOptions {
  delayMs: number;
  /** A failed run is reported here; the next ask starts a new one. */
  onError?: (error: unknown) => void;
  setTimer?: (run: () => void, ms: number) => unknown;
}

type State = "waiting" | "running" | "running, again after";

export class CoalescedRuns<K> {
  private readonly states = new Map<K, State>();
  private readonly setTimer: (run: () => void, ms: number) => unknown;

  constructor(
    private readonly run: (key: K) => Promise<unknown>,
    private readonly options: CoalescedRunsOptions,
  ) {
    this.setTimer =
      options.setTimer ??
      ((run, ms) => {
        // A pending run never keeps a process alive that is otherwise done.
        const timer = setTimeout(run, ms);
        timer.unref?.();
        return timer;
      });
  }

  ask(key: K): void {
    const state = this.states.get(key);
    if (state === "waiting" || state === "running, again after") return;
    if (state === "running") return void this.states.set(key, "running, again after");
    this.schedule(key);
  }

  private schedule(key: K): void {
    this.states.set(key, "waiting");
    this.setTimer(() => void this.start(key), this.options.delayMs);
  }

  private async start(key: K): Promise<void> {
    this.states.set(key, "running");
    try {
      await this.run(key);
    } catch (error) {
      this.options.onError?.(error);
    }
    if (this.states.get(key) === "running, again after") this.schedule(key);
    else this.states.delete(key);
  }
}
