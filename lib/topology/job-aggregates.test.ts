import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OpenFault } from "@/lib/faults/health";
import { faultLevels } from "@/lib/faults/levels";
import { healthOverlay, withHealth, type HealthOverlay } from "./health-overlay";
import type { TopologyIndex } from "./inventory-index";
import { jobDieSet, withJobAggregates } from "./job-aggregates";
import { largeA2Cluster, largeA3Cluster } from "./large-cluster";
import type { TopologyView } from "./model";
import { rackIndex } from "./racks";
import { rowOfRack } from "./rows";
import { indexOf } from "./test-support";
import { buildTopologyView } from "./view";

// 1,141 servers: the cluster view draws its pods as aggregates; pod-0's 70 servers are drawn by rack.
const a3 = indexOf(largeA3Cluster(64, [70, ...Array.from({ length: 63 }, () => 17)]));
// 1,100 plain servers: 138 racks, more than a row holds: the cluster view draws 2 rows, a row view its racks.
const plain = indexOf(largeA2Cluster(1_100));

/**
 * What the job overlay must say, die by die as it was first written: each distinct die id the index knows, in the
 * most specific aggregate of the view that holds it (server, else rack, else row, else super pod), with its state.
 */
function reference(view: TopologyView, index: TopologyIndex, ids: readonly string[], health: HealthOverlay) {
  const aggregated = new Set(view.nodes.filter((n) => n.aggregated).map((n) => `${n.kind}:${n.id}`));
  const racks = rackIndex(index).ofServer;
  const tallies = new Map<string, { dies: number; faulty: number; degraded: number }>();
  let unplaced = 0;
  for (const id of new Set(ids)) {
    const die = index.dieById.get(id);
    if (!die) {
      unplaced++;
      continue;
    }
    const rack = racks.get(die.server);
    const row = rack && rowOfRack(index, rack);
    const key = [`server:${die.server.id}`, rack && `rack:${rack.id}`, row && `row:${row.id}`, die.server.pod && `superpod:${die.server.pod.id}`].find((k) => k && aggregated.has(k));
    if (!key) continue;
    const tally = tallies.get(key) ?? { dies: 0, faulty: 0, degraded: 0 };
    tallies.set(key, tally);
    tally.dies++;
    const tone = health.die(die);
    if (tone === "faulty") tally.faulty++;
    if (tone === "degraded") tally.degraded++;
  }
  return { tallies, unplaced };
}

/** Dies picked by rank (with repeats), ids of no die, and open faults on the picked servers and others. */
const jobAndFaults = (index: TopologyIndex) =>
  fc.record({
    ranks: fc.array(fc.nat(index.dieCount - 1), { maxLength: 400 }),
    strays: fc.array(fc.constantFrom("nowhere/d1", "nowhere/d2", `${index.servers[0]!.id}/d99`, `${index.servers[0]!.id}/d01`), { maxLength: 4 }),
    faults: fc.array(fc.record({ rank: fc.nat(index.dieCount - 1), scope: fc.constantFrom("die", "npu", "server"), level: fc.constantFrom(...faultLevels) }), { maxLength: 12 }),
    collected: fc.boolean(),
  });

function check(index: TopologyIndex, level: "cluster" | "superpod" | "row", id: string | null) {
  fc.assert(
    fc.property(jobAndFaults(index), ({ ranks, strays, faults, collected }) => {
      const ids = [...ranks.map((rank) => index.die(rank).id), ...strays];
      const open = faults.map(({ rank, scope, level: faultLevel }): OpenFault => {
        const die = index.die(rank);
        return {
          superPodId: die.server.pod?.id ?? null,
          serverId: die.server.id,
          npuIndex: scope === "server" ? null : die.npuIndex,
          deviceId: scope === "die" ? die.spec.deviceId : null,
          planeKey: null,
          level: faultLevel,
        };
      });
      const health = healthOverlay(index, collected ? open : null);
      const healthy = withHealth(buildTopologyView(index, level, id), health);
      const { view, unplaced } = withJobAggregates(healthy, index, jobDieSet(index, ids), health);
      const expected = reference(healthy, index, ids, health);
      expect(unplaced).toBe(expected.unplaced);
      expect(new Map(view.nodes.filter((n) => n.job).map((n) => [`${n.kind}:${n.id}`, n.job]))).toEqual(expected.tallies);
      // The sum of the parts: every distinct die of the job the view's aggregates hold, counted once.
      const drawn = view.nodes.reduce((sum, n) => sum + (n.job?.dies ?? 0), 0);
      expect(drawn).toBe([...expected.tallies.values()].reduce((sum, t) => sum + t.dies, 0));
      expect(drawn).toBeLessThanOrEqual(new Set(ranks).size);
    }),
    { numRuns: 25 },
  );
}

describe("a job over an aggregated view", () => {
  it("counts exactly what a die-by-die count does over super pods, with their faulty and degraded dies", () => check(a3, "cluster", null));
  it("counts exactly over the racks of a super pod drawn by rack", () => check(a3, "superpod", "pod-0"));
  it("counts exactly over the rows of plain servers' racks", () => check(plain, "cluster", null));
  it("counts exactly over the racks of a row", () => check(plain, "row", "row1"));

  it("holds every die of a job on the whole cluster once, repeats and unknown ids aside", () => {
    const ids = [...a3.dieByRank.map((die) => die.id), a3.die(5).id, "nowhere/d1", "nowhere/d1", `${a3.servers[3]!.id}/d01`];
    const dies = jobDieSet(a3, ids);
    expect(dies.ranks.length).toBe(a3.dieCount);
    expect(dies.unplaced).toBe(2);
    const health = healthOverlay(a3, []);
    const { view } = withJobAggregates(withHealth(buildTopologyView(a3, "cluster", null), health), a3, dies, health);
    for (const pod of view.nodes.filter((n) => n.kind === "superpod")) expect(pod.job?.dies).toBe(pod.counts!.dies);
  });

  it("leaves a view without aggregates as it is", () => {
    const health = healthOverlay(a3, []);
    const view = withHealth(buildTopologyView(a3, "server", a3.servers[0]!.id), health);
    expect(withJobAggregates(view, a3, jobDieSet(a3, [a3.die(0).id]), health)).toEqual({ view, unplaced: 0 });
  });
});
