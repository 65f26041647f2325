import { describe, expect, it } from "vitest";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import { diagnosisEvents, dieOf } from "./diagnosis-events";

const report: DiagnosisReport = {
  phase: "load",
  summary: { en: "rank 5 never connected", zh: "rank 5 未建链" },
  suspects: [
    { kind: "rank", rank: 5, confidence: 0.9, reason: { en: "did not time out", zh: "未超时" }, evidence: [{ file: "n0/plog.log", line: 3, text: "[ERROR] HCCL(1,python):EI0006: socket timeout" }] },
    { kind: "link", rank: 5, peer: { deviceIp: "192.168.1.9" }, confidence: 0.4, reason: { en: "link", zh: "链路" }, evidence: [] },
    { kind: "nic", deviceIp: "10.0.0.99", confidence: 0.2, reason: { en: "unknown NIC", zh: "未知网卡" }, evidence: [] },
  ],
  ranks: [],
  nextSteps: [],
  stats: { files: 1, lines: 3, unknownLines: 0, errorLines: 1 },
};

describe("diagnosisEvents", () => {
  it("puts suspects on the job's dies and links, with a stable id, the phase and the code", () => {
    const ranks = [
      { rank: 5, deviceIp: "192.168.1.7", hostIp: null, dieKey: "sp0-node00/1" },
      { rank: 7, deviceIp: "192.168.1.9", hostIp: null, dieKey: "sp0-node00/3" },
    ];
    const { events, unplaced } = diagnosisEvents(report, { id: 4, cluster: "atlas-a3-demo", name: "llama", at: 1000 }, ranks);
    expect(unplaced).toBe(1);
    expect(events).toEqual([
      expect.objectContaining({ id: "job4:load:rank:sp0-node00/1", target: { server: "sp0-node00", die: 1 }, code: "EI0006", phase: "operator-loading", rank: 5, job: "llama" }),
      expect.objectContaining({ id: "job4:load:link:sp0-node00/1~sp0-node00/3", target: { server: "sp0-node00", die: 1, peer: { server: "sp0-node00", die: 3 } } }),
    ]);
    expect(events[1]).not.toHaveProperty("code");
  });

  it("places a NIC the logs name by server IP and device id (EI0013's \"server\") on the job's die there", () => {
    const ranks = [
      { rank: 0, deviceIp: "10.0.0.1", hostIp: "172.16.0.1", dieKey: "node-1/1" },
      { rank: 1, deviceIp: "10.0.0.3", hostIp: "172.16.0.1", dieKey: "node-1/3" },
    ];
    expect(dieOf({ serverId: "172.16.0.1", deviceId: 3 }, ranks)).toEqual({ server: "node-1", die: 3 });
    expect(dieOf({ serverId: "172.16.0.2", deviceId: 3 }, ranks)).toBeNull();
  });
});
