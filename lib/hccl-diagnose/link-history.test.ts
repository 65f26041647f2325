/** An error CQE's two NICs and their link-down history from the fault events (seed 002, 6.3). */
import { describe, expect, it } from "vitest";
import { generateFromTemplate, writeRankTable } from "../rank-table";
import { cqeNics, diagnoseTexts, withLinkHistory, type LinkDownEvent, type LinkHistory } from "./index";
import { EVENTS_PER_SUSPECT } from "./link-history";

const table = writeRankTable(generateFromTemplate({ version: "1.0", serversPerSuperPod: 2, npusPerServer: 8, diesPerNpu: 1 }));
// The heartbeat's error CQE line (hicann/hccl error_cqe_report_EI0013.md): rank 2 (10.0.0.2) ↔ rank 13 (10.0.1.5).
const cqe = "[ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[172.16.0.0],deviceId[2],deviceIp[10.0.0.2]}, remoteIP{server[172.16.0.1],deviceId[5],deviceIp[10.0.1.5]}\n";
// Every other rank timed out waiting (EI0002), as in a real execution failure.
const timeouts = Array.from({ length: 16 }, (_, rank) => ({
  path: `node/debug/plog/plog-${1000 + rank}_1.log`,
  text: `[ERROR] HCCL(${1000 + rank},python):2025-09-15-08:40:00.000.000 [task_exception_handler.cc:100] [${1000 + rank}][TaskExecStage] Notify wait timeout, groupRank[${rank}], rankSize[16], remote rank[${(rank + 1) % 16}]. EI0002\n`,
}));
const report = () => diagnoseTexts([{ path: "node_0/debug/plog/plog-2040034_1.log", text: cqe }, ...timeouts], { rankTable: table });
const window = { from: "2025-09-15T07:00:00.000Z", to: "2025-09-15T08:50:00.000Z" };
const linkDown = (nic: string, die: string, beganAt: string, endedAt: string | null = null): LinkDownEvent => ({
  id: `ev-${nic}-${beganAt}`,
  nic,
  die,
  target: "die",
  kind: "roce-link-down",
  code: "81078603",
  level: "NotHandleFault",
  beganAt,
  endedAt,
});

describe("an error CQE's link-down history", () => {
  it("lists both NICs of each error CQE once, with what the log and the rank table say of them", () => {
    const diagnosed = report();
    expect(diagnosed.suspects[0]!.nics).toEqual([
      { deviceIp: "10.0.0.2", server: "172.16.0.0", deviceId: 2, rank: 2 },
      { deviceIp: "10.0.1.5", server: "172.16.0.1", deviceId: 5, rank: 13 },
    ]);
    expect(cqeNics(diagnosed).map((nic) => nic.deviceIp)).toEqual(["10.0.0.2", "10.0.1.5"]);
    expect(cqeNics(diagnoseTexts(timeouts, { rankTable: table }))).toEqual([]);
  });

  it("names the NIC that went down while the job ran, in both languages, surer than the bare error CQE", () => {
    const before = report();
    const bare = before.suspects.find((s) => s.nics)!;
    const history: LinkHistory = { ...window, unplaced: [], events: [linkDown("10.0.1.5", "node-1/5", "2025-09-15T08:37:50.000Z", "2025-09-15T08:38:15.000Z"), linkDown("10.9.9.9", "node-9/0", "2025-09-15T08:00:00.000Z")] };
    const after = withLinkHistory(before, history);
    const suspect = after.suspects[0]!;
    expect(suspect).toMatchObject({ kind: "link", rank: 2, peer: { rank: 13 } });
    expect(suspect.confidence).toBeGreaterThan(bare.confidence);
    expect(suspect.linkHistory).toEqual({ ...window, unplaced: [], events: [history.events[0]] });
    expect(suspect.reason.en).toContain("NIC 10.0.1.5 (node-1/5): roce-link-down ×1, the first at 2025-09-15 08:37:50Z, for 25 s: the link at that NIC is the likely cause");
    expect(suspect.reason.zh).toContain("网卡 10.0.1.5（node-1/5）：roce-link-down ×1，首次于 2025-09-15 08:37:50Z，持续 25 秒");
    // The summary is the new head's.
    expect(after.summary.en).toContain("the link at that NIC is the likely cause");
    expect(after.summary.zh).toContain("很可能是根因");
    // The JSON carries it.
    expect(JSON.parse(JSON.stringify(after)).suspects[0].linkHistory.events[0]).toMatchObject({ nic: "10.0.1.5", kind: "roce-link-down", code: "81078603" });
  });

  it("says when neither NIC went down (look at the peer process), and when their dies are not known", () => {
    const quiet = withLinkHistory(report(), { ...window, unplaced: [], events: [] }).suspects.find((s) => s.nics)!;
    expect(quiet.confidence).toBe(report().suspects.find((s) => s.nics)!.confidence);
    expect(quiet.reason.en).toContain("record no link-down of either NIC from 2025-09-15 07:00:00Z to 2025-09-15 08:50:00Z: check whether the peer process exited first");
    expect(quiet.reason.zh).toContain("两端网卡无 linkdown 记录");
    const halfKnown = withLinkHistory(report(), { ...window, unplaced: ["10.0.1.5"], events: [] }).suspects.find((s) => s.nics)!;
    expect(halfKnown.reason.en).toContain("no link-down of NIC 10.0.0.2");
    expect(halfKnown.linkHistory!.unplaced).toEqual(["10.0.1.5"]);
    const unknown = withLinkHistory(report(), { ...window, unplaced: ["10.0.0.2", "10.0.1.5"], events: [] }).suspects.find((s) => s.nics)!;
    expect(unknown.reason.en).toContain("Neither NIC is placed");
    expect(unknown.reason.zh).toContain("无法查询其 linkdown 历史");
  });

  it("counts every event of a flapping link but lists a few, and leaves a report without an error CQE as it is", () => {
    const flaps = Array.from({ length: 50 }, (_, i) => linkDown("10.0.0.2", "node-0/2", new Date(Date.parse("2025-09-15T08:00:00Z") + i * 1000).toISOString()));
    const suspect = withLinkHistory(report(), { ...window, unplaced: [], events: flaps }).suspects[0]!;
    expect(suspect.reason.en).toContain("roce-link-down ×50, the first at 2025-09-15 08:00:00Z, still open");
    expect(suspect.linkHistory!.events).toHaveLength(EVENTS_PER_SUSPECT);
    const plain = diagnoseTexts(timeouts, { rankTable: table });
    expect(withLinkHistory(plain, { ...window, unplaced: [], events: flaps })).toBe(plain);
  });
});
