import { describe, expect, it } from "vitest";
import type { JobRankInfo } from "@/db/schema/job/validation";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import { jobOverlay, jobServers } from "./overlay";

const rank = (r: number, dieId: string | null, deviceIp: string): JobRankInfo => ({ rank: r, serverId: null, hostIp: null, deviceId: null, deviceIp, dieId, match: null, unmatched: null, deviceIpDiffers: false });

describe("jobOverlay", () => {
  it("marks the suspect's die red and timed-out ranks amber over the job's dies", () => {
    const ranks = [rank(0, "a/d0", "10.0.0.1"), rank(1, "a/d1", "10.0.0.2"), rank(2, "b/d0", "10.0.0.3"), rank(3, null, "10.9.9.9")];
    const report = {
      phase: "execute",
      suspects: [{ kind: "nic", deviceIp: "10.0.0.3", confidence: 0.5, reason: { en: "", zh: "" }, evidence: [] }],
      ranks: [
        { rank: 0, status: "timeout", files: [] },
        { rank: 1, status: "ok", files: [] },
      ],
    } as unknown as DiagnosisReport;
    const { overlay, rankOfDie } = jobOverlay(ranks, report);
    expect([...overlay.dies]).toEqual([
      ["a/d0", "timeout"],
      ["a/d1", "member"],
      ["b/d0", "suspect"],
    ]);
    expect(rankOfDie.get("b/d0")).toBe(2);
    expect(jobServers(ranks)).toEqual(["a", "b"]);
  });
});
