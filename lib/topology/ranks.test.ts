import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ranksFromRankTable } from "./ranks";

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
