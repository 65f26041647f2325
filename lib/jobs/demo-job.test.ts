import { describe, expect, it } from "vitest";
import { diagnoseTexts } from "@/lib/hccl-diagnose";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { demoFailedJob } from "./demo-job";
import { placeRanks } from "./placement";
import { rankEntries } from "./rank-entries";

describe("demoFailedJob", () => {
  it("moves a generated failed job onto the demo servers: every rank placed, the diagnosis names the culprit's die", () => {
    const cluster = demoA2Cluster();
    const job = demoFailedJob(cluster, { phase: "load", servers: 2, culpritRank: 11 });
    const dies = cluster.servers.flatMap((s) => s.npus.flatMap((n) => n.dies.map((d) => ({ serverId: s.serverId, hostIp: s.hostIp, deviceId: d.deviceId, deviceIp: d.deviceIp }))));
    const placed = placeRanks(rankEntries(job.rankTable)!, dies);
    expect(placed.every((p) => p.dieId !== null && !p.deviceIpDiffers)).toBe(true);
    expect(job.culprit).toEqual({ rank: 11, serverId: "a2-node1", deviceId: 3 });
    const files = [...job.files()];
    expect(files.some((f) => f.text.includes("node_0"))).toBe(false);
    const report = diagnoseTexts(files, { rankTable: job.rankTable });
    expect(report.phase).toBe("load");
    expect(report.suspects[0]).toMatchObject({ rank: 11 });
  });
});
