import { describe, expect, it } from "vitest";
import { faultEventInputSchema } from "@/db/schema/fault-event/validation";
import { simulateDay } from "./simulate";

describe("simulated day", () => {
  const end = Date.parse("2026-11-23T06:00:00Z");
  const day = simulateDay({ end });

  it("is deterministic and valid API input inside the day", () => {
    expect(simulateDay({ end })).toEqual(day);
    for (const event of day) {
      expect(faultEventInputSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
      expect(Date.parse(event.beganAt)).toBeGreaterThanOrEqual(end - 86_400_000);
      expect(Date.parse(event.endedAt ?? event.beganAt)).toBeLessThanOrEqual(end);
    }
    expect(new Set(day.map((e) => e.id)).size).toBe(day.length);
  });

  it("has the seeds' scenarios", () => {
    const kinds = new Set(day.map((e) => e.kind));
    for (const kind of ["roce-link-down", "gateway-probe-failure", "npu-chip-fault", "hccl-error", "job-rescheduled", "bus-device-fault", "hccs-fault"]) expect(kinds).toContain(kind);
    expect(day.filter((e) => e.code === "EI0006").length).toBeGreaterThan(20);
    // The culprit of the cascade reports no EI0006.
    expect(day.some((e) => e.code === "EI0006" && e.target.server === "sp0-node30" && e.target.die === 3)).toBe(false);
    expect(day.filter((e) => e.message?.includes("rail 7"))).toHaveLength(48);
    expect(day.filter((e) => e.endedAt === undefined)).toHaveLength(1);
  });
});
