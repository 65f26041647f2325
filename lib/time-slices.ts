/**
 * Long synchronous work cut into slices, so the requests sharing the event loop are served in between: a fault batch
 * judges tens of thousands of history rows on the loop the viewers' requests wait on (issue 20, item 7: with a batch
 * at a time ingesting, every page call waited seconds). `if (slices.due()) await slices.pause();` in the loop: the
 * check is a clock read, the pause one turn of the loop (setImmediate: I/O callbacks run first).
 */
export class TimeSlices {
  private started = performance.now();

  constructor(private readonly sliceMs = 10) {}

  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
