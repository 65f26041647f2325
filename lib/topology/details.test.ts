import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { findProfile } from "@/lib/fabric/profiles";
import { faultScopeOf, nodeDetails, switchImpactOf, type SavedRankTable } from "./details";
import { ranksByIndexDie } from "./ranks";
import { indexOf } from "./test-support";
import { TopologyNotFoundError } from "./view";

const demo = indexOf(demoA3Cluster());
const a2 = indexOf(demoA2Cluster());

describe("faultScopeOf", () => {
  it("scopes a die to its own key and to links with it at either end", () => {
    expect(faultScopeOf(demo, "die", "sp1-node05/d7")).toEqual({
      targetKeys: ["die:sp1-node05/7"],
      linkEnds: ["sp1-node05/7"],
      timeline: { target: "sp1-node05/7", open: ["pod:1", "server:sp1-node05"] },
    });
  });

  it("scopes an NPU to itself and its two dies, a server to itself, its NPUs and its 16 dies", () => {
    const npu = faultScopeOf(demo, "npu", "sp0-node05/npu3");
    expect(npu.targetKeys).toEqual(["npu:sp0-node05/3", "die:sp0-node05/6", "die:sp0-node05/7"]);
    expect(npu.linkEnds).toEqual(["sp0-node05/6", "sp0-node05/7"]);
    const server = faultScopeOf(demo, "server", "sp0-node05");
    // itself, 8 NPUs, its 7 switch chips (SwitchInfoCfg), 16 dies
    expect(server.targetKeys).toHaveLength(1 + 8 + 7 + 16);
    expect(server.targetKeys).toContain("switch:sp0-node05/6");
    expect(server.targetKeys.slice(0, 2)).toEqual(["server:sp0-node05", "npu:sp0-node05/0"]);
    expect(server.linkEnds).toHaveLength(16);
    expect(server.timeline).toEqual({ target: "sp0-node05", open: ["pod:0", "server:sp0-node05"] });
  });

  it("scopes a super pod to itself and everything of its 48 servers; the timeline can only open its lane", () => {
    const pod = faultScopeOf(demo, "superpod", "1");
    expect(pod.targetKeys[0]).toBe("pod:1");
    expect(pod.targetKeys).toHaveLength(1 + 48 * (1 + 8 + 7 + 16));
    expect(pod.targetKeys).toContain("die:sp1-node47/15");
    expect(pod.targetKeys).not.toContain("die:sp0-node00/0");
    expect(pod.timeline).toEqual({ target: null, open: ["pod:1"] });
  });

  it("scopes a bus plane to switch chip k of every server of its pod (chip k uplinks to plane k)", () => {
    const scope = faultScopeOf(demo, "plane", "pod:1/ub:3");
    expect(scope.targetKeys).toHaveLength(48);
    expect(scope.targetKeys[0]).toBe("switch:sp1-node00/3");
    expect(scope.targetKeys.every((key) => /^switch:sp1-node\d+\/3$/.test(key))).toBe(true);
    expect(scope).toMatchObject({ linkEnds: [], timeline: { target: null, open: ["fabric", "plane:pod:1/ub:3"] } });
    const details = nodeDetails(demo, "plane", "pod:1/ub:3");
    expect(details.node).toMatchObject({ kind: "plane", id: "pod:1/ub:3", superPodId: "1", planeIndex: 3, counts: { servers: 48 } });
    expect(details.path.map((c) => c.label)).toEqual(["Atlas 900 A3 SuperPoD (demo)", "Super pod 1"]);
    expect(() => faultScopeOf(demo, "plane", "pod:9/ub:0")).toThrow(TopologyNotFoundError);
    expect(() => faultScopeOf(demo, "plane", "ub:0")).toThrow(TopologyNotFoundError);
  });

  it("opens no super pod lane for a server without one, and refuses unknown nodes", () => {
    const server = a2.servers[0]!;
    expect(faultScopeOf(a2, "server", server.id).timeline.open).toEqual([`server:${server.id}`]);
    expect(() => faultScopeOf(demo, "die", "sp0-node05/d99")).toThrow(TopologyNotFoundError);
  });
});

describe("rank-table memberships", () => {
  const table = (id: number, name: string, ranks: [string, number][]): SavedRankTable => ({
    table: { id, name, revision: 3, clusterId: 1 },
    ranks: ranksByIndexDie(demo, new Map(ranks)),
  });
  const saved = [
    table(1, "job-a", [["sp0-node05/d6", 40], ["sp0-node05/d7", 41], ["sp0-node06/d0", 50]]),
    table(2, "other", [["sp1-node00/d0", 0]]),
    table(3, "whole-server", Array.from({ length: 16 }, (_, d) => [`sp0-node05/d${d}`, 100 + d] as [string, number])),
  ];

  it("lists the inventory's ranks, then each saved table that ranks the node, with the ranks or their range", () => {
    const npu = nodeDetails(demo, "npu", "sp0-node05/npu3", { savedTables: saved });
    expect(npu.rankTables).toEqual([
      { table: null, count: 2, min: 86, max: 87, ranks: [86, 87] },
      { table: saved[0]!.table, count: 2, min: 40, max: 41, ranks: [40, 41] },
      { table: saved[2]!.table, count: 2, min: 106, max: 107, ranks: [106, 107] },
    ]);
    const server = nodeDetails(demo, "server", "sp0-node05", { savedTables: saved });
    expect(server.rankTables.map((m) => [m.table?.name ?? "inventory", m.count, m.min, m.max, m.ranks.length])).toEqual([
      ["inventory", 16, 80, 95, 0],
      ["job-a", 2, 40, 41, 2],
      ["whole-server", 16, 100, 115, 0],
    ]);
    const pod = nodeDetails(demo, "superpod", "0", { savedTables: saved });
    expect(pod.rankTables.map((m) => m.table?.id ?? null)).toEqual([null, 1, 3]);
    expect(pod.rankTables[1]).toMatchObject({ count: 3, min: 40, max: 50 });
  });

  it("leaves out tables that do not rank the node", () => {
    expect(nodeDetails(demo, "die", "sp0-node05/d0", { savedTables: saved }).rankTables.map((m) => m.table?.id ?? null)).toEqual([null, 3]);
    expect(nodeDetails(demo, "die", "sp1-node05/d0", { savedTables: saved }).rankTables.map((m) => m.table?.id ?? null)).toEqual([null]);
  });
});

describe("fabric details", () => {
  const a3 = findProfile("atlas-900-a3-superpod")!;

  it("shows a die's plane ports from the cluster's profile: 7 bus ports through chips 0-6, its NPU's RoCE port", () => {
    const details = nodeDetails(demo, "die", "sp1-node07/d13", { profile: a3 });
    expect(details.planePorts?.bus.map((p) => p.chipKey)).toEqual(Array.from({ length: 7 }, (_, k) => `server:sp1-node07/chip:${k}`));
    expect(details.planePorts?.parameter).toMatchObject({ portIndex: 6, sharedBy: 2, provenance: "assumed" });
    expect(nodeDetails(demo, "die", "sp1-node07/d13").planePorts).toBeNull();
    expect(nodeDetails(demo, "server", "sp1-node07", { profile: a3 }).planePorts).toBeNull();
  });

  it("resolves a node chip and a bus switch, scoping the chip to its SwitchInfoCfg target and the fabric lane", () => {
    const chip = nodeDetails(demo, "switch", "server:sp1-node07/chip:3");
    expect(chip.node).toMatchObject({ kind: "switch", switchKind: "node-chip", switchIndex: 3, serverId: "sp1-node07", planeKey: "pod:1/ub:3" });
    expect(faultScopeOf(demo, "switch", "server:sp1-node07/chip:3")).toMatchObject({ targetKeys: ["switch:sp1-node07/3"], timeline: { target: "sp1-node07", open: ["fabric", "pod:1", "server:sp1-node07"] } });
    const bus = nodeDetails(demo, "switch", "pod:1/ub:2/sw:5");
    expect(bus.node).toMatchObject({ kind: "switch", switchKind: "bus-switch", switchIndex: 5, planeKey: "pod:1/ub:2", superPodId: "1", counts: { servers: 48 } });
    expect(() => nodeDetails(demo, "switch", "server:nope/chip:0")).toThrow(TopologyNotFoundError);
    expect(() => nodeDetails(demo, "switch", "pod:9/ub:0/sw:0")).toThrow(TopologyNotFoundError);
  });

  it("takes down a chip's server (cut) and degrades the rest of its pod; the parameter plane resolves with its pod", () => {
    const radius = switchImpactOf(demo, "server:sp1-node07/chip:3", { planes: 7, uplinksPerServerPerPlane: 8 })!;
    expect(radius.servers[0]).toEqual({ serverId: "sp1-node07", effect: "cut", busShareLost: 1 / 7 });
    expect(radius.servers.filter((s) => s.effect === "degraded")).toHaveLength(47);
    expect([radius.cutDies, radius.degradedDies]).toEqual([16, 47 * 16]);
    expect(switchImpactOf(demo, "pod:1/ub:3", { planes: 7, uplinksPerServerPerPlane: 8 })).toBeNull();
    expect(nodeDetails(demo, "plane", "param/leaf:1").node).toMatchObject({ planeKind: "parameter", superPodId: "1", counts: { servers: 48 } });
    expect(() => nodeDetails(demo, "plane", "param/leaf:9")).toThrow(TopologyNotFoundError);
  });
});

describe("nodeDetails", () => {
  it("lists a die's fields, its backup-rail partner and its plane links, and its inventory rank", () => {
    const details = nodeDetails(demo, "die", "sp0-node00/d0");
    expect(details.node).toMatchObject({ deviceIp: "192.168.1.6", rank: 0, health: "unknown" });
    expect(details.links.map((l) => [l.kind, l.peer])).toEqual([
      ["backup-rail", "sp0-node00/d1"],
      ["hccs", "sp0-node01/d0"],
      ["hccs", "sp0-node47/d0"],
      ["roce", "sp1-node00/d0"],
    ]);
    expect(details.rankTables).toEqual([{ table: null, count: 1, min: 0, max: 0, ranks: [0] }]);
    expect(details.faults).toBeNull();
  });

  it("aggregates a super pod's and a server's links by peer", () => {
    expect(nodeDetails(demo, "superpod", "1").links).toEqual([{ kind: "roce", peer: "0", peerKind: "superpod", peerLabel: "Super pod 0", count: 768 }]);
    expect(nodeDetails(demo, "server", "sp0-node05").links.map((l) => [l.kind, l.peer, l.count])).toEqual([
      ["hccs", "sp0-node04", 16],
      ["hccs", "sp0-node06", 16],
      ["roce", "sp1-node05", 16],
    ]);
    expect(nodeDetails(demo, "npu", "sp0-node05/npu3").node.counts?.dies).toBe(2);
    expect(() => nodeDetails(demo, "die", "sp0-node05/d99")).toThrow(TopologyNotFoundError);
  });
});
