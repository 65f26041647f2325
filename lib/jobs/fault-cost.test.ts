import { describe, expect, it } from "vitest";
import { faultCost } from "./fault-cost";

describe("faultCost", () => {
  const run = { startedAt: 1_000, endedAt: 11_000 };
  it("counts overlapping work-stopping faults once, clipped to the run", () => {
    const cost = faultCost(
      [
        { level: "SeparateNPU", beganAt: 0, endedAt: 3_000 },
        { level: "RestartNPU", beganAt: 2_000, endedAt: 4_000 },
        { level: "NotHandleFault", beganAt: 5_000, endedAt: 9_000 },
        { level: "PreSeparateNPU", beganAt: 10_000, endedAt: null },
      ],
      run,
      20_000,
    );
    expect(cost.runMs).toBe(10_000);
    // SeparateNPU + RestartNPU: 1,000 → 4,000; NotHandleFault and PreSeparateNPU do not stop work.
    expect(cost.stoppedMs).toBe(3_000);
    expect(cost.stoppingEvents).toBe(2);
  });

  it("runs open faults and running jobs until now, and costs nothing before the start", () => {
    expect(faultCost([{ level: "SeparateNPU", beganAt: 5_000, endedAt: null }], { startedAt: 1_000, endedAt: null }, 8_000)).toEqual({ stoppedMs: 3_000, runMs: 7_000, stoppingEvents: 1 });
    expect(faultCost([{ level: "SeparateNPU", beganAt: 0, endedAt: 5 }], { startedAt: null, endedAt: null }, 8_000).runMs).toBe(0);
  });
});
