import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { linkKinds } from "@/lib/inventory/vocabulary";
import { largeA3Cluster } from "./large-cluster";
import { overlaps } from "./layout";
import { expandNeighbourhood, NEIGHBOURHOOD_MAX_DIES } from "./neighbourhood";
import { indexOf } from "./test-support";
import { buildTopologyView, TopologyNotFoundError } from "./view";

const demo = indexOf(demoA3Cluster());
const large = indexOf(largeA3Cluster(8, 16));

describe("a server's neighbourhood", () => {
  it("expands hop by hop along the chosen kinds only", () => {
    const die = large.dieById.get("p3-s005/d4")!;
    // Backup rail alone: the NPU's other die, and no further.
    const rail = expandNeighbourhood(large, [die], { hops: 3, kinds: ["backup-rail"] });
    expect(rail.dies.map(({ die, hop }) => [die.id, hop])).toEqual([
      ["p3-s005/d4", 0],
      ["p3-s005/d5", 1],
    ]);
    // HCCS: the same device of the ring's neighbours, one more server each way per hop.
    const hccs = expandNeighbourhood(large, [die], { hops: 2, kinds: ["hccs"] });
    expect(hccs.dies.map(({ die, hop }) => [die.id, hop])).toEqual([
      ["p3-s005/d4", 0],
      ["p3-s004/d4", 1],
      ["p3-s006/d4", 1],
      ["p3-s003/d4", 2],
      ["p3-s007/d4", 2],
    ]);
    // RoCE: the same rail of the neighbouring super pods.
    const roce = expandNeighbourhood(large, [die], { hops: 1, kinds: ["roce"] });
    expect(roce.dies.map(({ die }) => die.id)).toEqual(["p3-s005/d4", "p2-s005/d4", "p4-s005/d4"]);
    expect(roce.omitted).toBe(0);
  });

  it("is deterministic and bounded: the same answer every time, at most the cap drawn, the rest counted", () => {
    fc.assert(
      fc.property(
        fc.nat(large.servers.length - 1),
        fc.integer({ min: 1, max: 3 }),
        fc.subarray([...linkKinds], { minLength: 1 }),
        fc.integer({ min: 1, max: 200 }),
        (serverIndex, hops, kinds, cap) => {
          const server = large.servers[serverIndex]!;
          const first = expandNeighbourhood(large, server.dies, { hops, kinds, cap });
          // Seeds given in another order change nothing.
          const again = expandNeighbourhood(large, [...server.dies].reverse(), { hops, kinds, cap });
          expect(again.dies.map(({ die, hop }) => [die.id, hop])).toEqual(first.dies.map(({ die, hop }) => [die.id, hop]));
          expect(first.dies.length).toBeLessThanOrEqual(cap);
          expect(first.dies.length + first.omitted).toBe(first.reached);
          // Hops never decrease in breadth-first order, and none is past the limit.
          const hopsSeen = first.dies.map(({ hop }) => hop);
          expect(hopsSeen).toEqual([...hopsSeen].sort((a, b) => a - b));
          expect(Math.max(...hopsSeen)).toBeLessThanOrEqual(hops);
          // Uncapped, the drawn set is exactly what lies within the hops (checked against a plain search).
          const all = expandNeighbourhood(large, server.dies, { hops, kinds, cap: 1e9 });
          const within = new Set(server.dies);
          let frontier = [...server.dies];
          for (let h = 0; h < hops; h++) {
            frontier = frontier.flatMap((d) => (large.dieLinks.get(d.id) ?? []).filter((l) => kinds.includes(l.kind) && !within.has(l.peer)).map((l) => (within.add(l.peer), l.peer)));
          }
          expect(new Set(all.dies.map(({ die }) => die))).toEqual(within);
          expect(first.reached).toBe(within.size);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("stops counting at the count limit and says the count is a lower bound", () => {
    const found = expandNeighbourhood(large, large.servers[0]!.dies, { hops: 3, kinds: [...linkKinds], cap: 10, countLimit: 40 });
    expect(found.dies).toHaveLength(10);
    expect(found.reachedCapped).toBe(true);
    expect(found.reached).toBe(40);
  });

  it("draws the server whole and its neighbours with the dies reached, in blocks per hop, without overlaps", () => {
    const view = buildTopologyView(large, "server", "p3-s005", {}, { hops: 2, kinds: ["hccs", "roce"], from: null });
    expect(view.neighbourhood).toMatchObject({ from: null, hops: 2, kinds: ["hccs", "roce"], omitted: 0, cap: NEIGHBOURHOOD_MAX_DIES });
    const servers = view.nodes.filter((node) => node.kind === "server");
    expect(servers[0]).toMatchObject({ id: "p3-s005", hop: 0, drawnDies: 16 });
    expect(servers.map((s) => s.hop)).toEqual([...servers.map((s) => s.hop)].sort());
    // Within 2 hops over HCCS and RoCE: s003–s007 of pod 3, s004–s006 of pods 2 and 4 (1 + 1), s005 of pods 1 and 5.
    expect(servers.map((s) => s.id).sort()).toEqual(
      ["p1-s005", "p2-s004", "p2-s005", "p2-s006", "p3-s003", "p3-s004", "p3-s005", "p3-s006", "p3-s007", "p4-s004", "p4-s005", "p4-s006", "p5-s005"].sort(),
    );
    expect(view.neighbourhood!.servers).toBe(13);
    expect(view.nodes.filter((n) => n.kind === "die")).toHaveLength(view.neighbourhood!.drawn);
    for (let i = 0; i < servers.length; i++) for (let j = i + 1; j < servers.length; j++) expect(overlaps(servers[i]!, servers[j]!)).toBe(false);
    const drawn = new Set(view.nodes.filter((n) => n.kind === "die").map((n) => n.id));
    expect(view.links.every((link) => drawn.has(link.source) && drawn.has(link.target) && ["hccs", "roce"].includes(link.kind))).toBe(true);
    expect(view.links.length).toBeGreaterThan(0);
  });

  it("expands from one die, which must be the server's", () => {
    const view = buildTopologyView(demo, "server", "sp0-node03", {}, { hops: 1, kinds: ["backup-rail"], from: "sp0-node03/d5" });
    expect(view.neighbourhood).toMatchObject({ from: "sp0-node03/d5", reached: 2, drawn: 2, servers: 1 });
    expect(view.nodes.filter((n) => n.hop !== undefined).map((n) => [n.id, n.hop])).toEqual([
      ["sp0-node03", 0],
      ["sp0-node03/d4", 1],
      ["sp0-node03/d5", 0],
    ]);
    expect(() => buildTopologyView(demo, "server", "sp0-node03", {}, { hops: 1, kinds: ["hccs"], from: "sp0-node04/d5" })).toThrow(TopologyNotFoundError);
  });

  it("caps what it draws at SuperCluster scale, and says how much it left out", () => {
    const view = buildTopologyView(large, "server", "p3-s005", {}, { hops: 3, kinds: [...linkKinds], from: null });
    const n = view.neighbourhood!;
    expect(n.drawn).toBeLessThanOrEqual(NEIGHBOURHOOD_MAX_DIES);
    expect(n.drawn + n.omitted).toBe(n.reached);
  });
});
