import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { ranksByIndexDie, ranksFromRankTable } from "./ranks";
import { indexOf } from "./test-support";

describe("ranks from a rank table", () => {
  it("maps each (server_id, device_id) to its rank_id, comments and all", () => {
    const text = readFileSync(new URL("../rank-table/fixtures/seed-super-pod.jsonc", import.meta.url), "utf8");
    const assignment = ranksFromRankTable(text)!;
    expect(assignment.devices).toBe(16);
    expect(assignment.ranks.get("node_1/d2")).toBe(6);
    expect(assignment.dies.get(9)).toBe("node_2/d1");
  });

  it("returns null for text that is not a rank table", () => {
    expect(ranksFromRankTable("{}")).toBeNull();
    expect(ranksFromRankTable("not json")).toBeNull();
  });
});

describe("ranks by the index's dies", () => {
  it("gives each die of the table its rank by its place in the index, none elsewhere, and leaves out dies the inventory lacks", () => {
    const index = indexOf(demoA3Cluster());
    const ranks = ranksByIndexDie(index, new Map([["sp0-node05/d6", 40], ["sp1-node00/d0", 0], ["sp9-node00/d0", 7], ["sp0-node05/d07", 8], ["sp0-node00/d1", 3]]));
    expect(ranks.rankAt(index.rankOf("sp0-node05/d6"))).toBe(40);
    expect(ranks.rankAt(index.rankOf("sp1-node00/d0"))).toBe(0);
    expect(ranks.rankAt(index.rankOf("sp0-node00/d1"))).toBe(3);
    const ranked = Array.from({ length: index.dieCount }, (_, place) => ranks.rankAt(place)).filter((rank) => rank !== undefined);
    expect(ranked.sort((a, b) => a - b)).toEqual([0, 3, 40]);
    expect(ranks.byteLength).toBe(3 * 12);
  });
});
