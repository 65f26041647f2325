import { describe, expect, it } from "vitest";
import type { JobDies } from "@/db/schema/job/ranks";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import { jobOverlay } from "./overlay";


describe("jobOverlay", () => {
  it("marks the suspect's die red and timed-out ranks amber over the job's dies", () => {
    const dies: JobDies["dies"] = [
      ["a/d0", 0, "10.0.0.1"],
      ["a/d1", 1, "10.0.0.2"],
      ["b/d0", 2, "10.0.0.3"],
      ["b/d1", null, null],
    ];
    const report = {
      phase: "execute",
      suspects: [{ kind: "nic", deviceIp: "10.0.0.3", confidence: 0.5, reason: { en: "", zh: "" }, evidence: [] }],
      ranks: [
        { rank: 0, status: "timeout", files: [] },
        { rank: 1, status: "ok", files: [] },
      ],
    } as unknown as DiagnosisReport;
    const { overlay, rankOfDie } = jobOverlay(dies, report);
    expect([...overlay.dies]).toEqual([
      ["a/d0", "timeout"],
      ["a/d1", "member"],
      ["b/d0", "suspect"],
      ["b/d1", "member"],
    ]);
    expect(rankOfDie.get("b/d0")).toBe(2);
  });
});
