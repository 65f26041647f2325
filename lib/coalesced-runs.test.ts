import { describe, expect, it } from "vitest";
import { CoalescedRuns } from "./coalesced-runs";

/** Timers run by hand, and runs that end when the test says. */
function harness() {
  const timers: (() => void)[] = [];
  const runs: { key: string; end: (error?: Error) => void }[] = [];
  const errors: unknown[] = [];
  const coalesced = new CoalescedRuns<string>(
    (key) =>
      new Promise<void>((resolve, reject) => {
        runs.push({ key, end: (error) => (error ? reject(error) : resolve()) });
      }),
    { delayMs: 1000, onError: (error) => errors.push(error), setTimer: (run) => timers.push(run) },
  );
  const fire = async () => {
    const due = timers.splice(0);
    for (const run of due) run();
    await Promise.resolve();
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { coalesced, timers, runs, errors, fire, settle };
}

describe("CoalescedRuns", () => {
  it("serves every ask before a run starts with that one run", async () => {
    const h = harness();
    h.coalesced.ask("a");
    h.coalesced.ask("a");
    h.coalesced.ask("a");
    expect(h.timers).toHaveLength(1);
    expect(h.runs).toHaveLength(0);
    await h.fire();
    expect(h.runs.map((r) => r.key)).toEqual(["a"]);
    h.runs[0]!.end();
    await h.settle();
    expect(h.timers).toHaveLength(0);
  });

  it("follows asks made during a run with one more run after it ends, never two at once", async () => {
    const h = harness();
    h.coalesced.ask("a");
    await h.fire();
    h.coalesced.ask("a");
    h.coalesced.ask("a");
    expect(h.timers).toHaveLength(0);
    h.runs[0]!.end();
    await h.settle();
    expect(h.timers).toHaveLength(1);
    expect(h.runs).toHaveLength(1);
    await h.fire();
    expect(h.runs).toHaveLength(2);
    h.runs[1]!.end();
    await h.settle();
    expect(h.timers).toHaveLength(0);
  });

  it("keeps keys apart", async () => {
    const h = harness();
    h.coalesced.ask("a");
    h.coalesced.ask("b");
    await h.fire();
    expect(h.runs.map((r) => r.key).sort()).toEqual(["a", "b"]);
  });

  it("reports a failed run and runs again on the next ask", async () => {
    const h = harness();
    h.coalesced.ask("a");
    await h.fire();
    h.runs[0]!.end(new Error("connection lost"));
    await h.settle();
    expect(h.errors).toHaveLength(1);
    h.coalesced.ask("a");
    await h.fire();
    expect(h.runs).toHaveLength(2);
  });
});
