import { describe, expect, it } from "vitest";
import { buildLanes, durationParts, listedLanes, overlapping, toCsv, type LaneEvent } from "./timeline";

const e = (id: string, pod: string | null, server: string | null, die: number | null, beganAt = 0, endedAt: number | null = 10): LaneEvent => ({
  id,
  superPodId: pod,
  serverId: server,
  deviceId: die,
  beganAt,
  endedAt,
  level: "NotHandleFault",
});

describe("swimlanes", () => {
  const events = [e("a", "0", "sp0-node02", 3), e("b", "0", "sp0-node10", 1), e("c", "1", "sp1-node00", 7), e("d", "0", "sp0-node02", null), e("x", null, null, null)];

  it("shows one lane per super pod when closed", () => {
    const { lanes, laneOf } = buildLanes(events, new Set());
    expect(lanes.map((l) => l.key)).toEqual(["cluster", "pod:0", "pod:1"]);
    expect(laneOf.get("a")).toBe(1);
    expect(lanes[1]!.count).toBe(3);
  });

  it("opens a super pod into servers (natural order) and a server into dies", () => {
    const { lanes, laneOf } = buildLanes(events, new Set(["pod:0", "server:sp0-node02"]));
    expect(lanes.map((l) => l.key)).toEqual(["cluster", "pod:0", "server:sp0-node02", "die:sp0-node02/3", "server:sp0-node10", "pod:1"]);
    expect(laneOf.get("a")).toBe(3);
    expect(laneOf.get("d")).toBe(2);
  });

  it("puts switch faults on a fabric lane beside the super pods, opening into one lane per bus plane", () => {
    const sw = (id: string, chip: number, planeKey: string | null): LaneEvent => ({ ...e(id, "1", "sp1-node07", null), targetKind: "switch", planeKey });
    const all = [...events, sw("s0", 0, "pod:1/ub:0"), sw("s1", 1, "pod:1/ub:1"), sw("u", 9, null)];
    const closed = buildLanes(all, new Set());
    expect(closed.lanes.map((l) => [l.key, l.count])).toEqual([["cluster", 1], ["fabric", 3], ["pod:0", 3], ["pod:1", 1]]);
    expect(closed.lanes[1]).toMatchObject({ kind: "fabric", expandable: true, expanded: false });
    const open = buildLanes(all, new Set(["fabric"]));
    expect(open.lanes.map((l) => l.key)).toEqual(["cluster", "fabric", "plane:pod:1/ub:0", "plane:pod:1/ub:1", "pod:0", "pod:1"]);
    expect([open.laneOf.get("s0"), open.laneOf.get("s1"), open.laneOf.get("u")]).toEqual([2, 3, 1]);
  });

  it("puts servers on top without super pods", () => {
    const { lanes } = buildLanes([e("a", null, "a2-node1", 0), e("b", null, "a2-node0", 2)], new Set());
    expect(lanes.map((l) => l.key)).toEqual(["server:a2-node0", "server:a2-node1"]);
  });

  it("lists at most so many lanes in text, in order, and counts the rest", () => {
    const servers = Array.from({ length: 250 }, (_, i) => e(`e${i}`, null, `node_${i}`, null));
    const { lanes } = buildLanes(servers, new Set());
    const { listed, more } = listedLanes(lanes, 200);
    expect(listed.map((l) => l.key).slice(0, 3)).toEqual(["server:node_0", "server:node_1", "server:node_2"]);
    expect(listed.at(-1)!.key).toBe("server:node_199");
    expect(more).toBe(50);
    expect(listedLanes(lanes.slice(0, 3), 200)).toEqual({ listed: lanes.slice(0, 3), more: 0 });
  });
});

describe("helpers", () => {
  it("finds events overlapping a range, open ones running until now", () => {
    const list = [e("a", null, null, null, 0, 5), e("b", null, null, null, 8, null)];
    expect(overlapping(list, 50, 60, 100).map((x) => x.id)).toEqual(["b"]);
    expect(overlapping(list, 6, 7, 100)).toEqual([]);
    expect(overlapping(list, 0, 1, 100).map((x) => x.id)).toEqual(["a"]);
  });

  it("writes CSV that spreadsheets read back, and defuses formulas", () => {
    expect(toCsv(["a", "b"], [["x,y", 'say "hi"'], [null, "=1+1"]])).toBe(`a,b\r\n"x,y","say ""hi"""\r\n,"'=1+1"\r\n`);
  });

  it("reads durations the way people say them", () => {
    expect(durationParts(200_000)).toEqual([{ unit: "min", value: 3 }, { unit: "s", value: 20 }]);
    expect(durationParts(20_000)).toEqual([{ unit: "s", value: 20 }]);
    expect(durationParts(90_061_000)).toEqual([{ unit: "d", value: 1 }, { unit: "h", value: 1 }]);
    expect(durationParts(400)).toEqual([{ unit: "ms", value: 400 }]);
  });
});
