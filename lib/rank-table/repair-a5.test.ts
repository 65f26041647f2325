import { describe, expect, it } from "vitest";
import { generateA5Table } from "./generate-a5";
import type { JsonObject } from "./model";
import { a5Numbers, a5RankCount, a5RenumberRanks } from "./repair-a5";
import { validateRankTable } from "./validate";

const table = () => JSON.parse(JSON.stringify(generateA5Table({ racks: 1, npusPerRack: 4 }))) as JsonObject;
const ranks = (value: JsonObject) => value.rank_list as JsonObject[];
const codes = (value: unknown) => validateRankTable(value as JsonObject).issues.map((issue) => issue.code);

describe("repairs of 2.0 tables", () => {
  it("a5Numbers writes whole numbers written as strings as numbers (RT103), and leaves other text alone", () => {
    const broken = table();
    broken.rank_count = "4";
    ranks(broken)[1]!.device_id = "1";
    (ranks(broken)[2]!.level_list as JsonObject[])[1]!.net_layer = "1";
    ranks(broken)[3]!.host_port = "16a";
    expect(codes(broken).filter((code) => code === "RT103")).toHaveLength(4);
    const { table: fixed, changes } = a5Numbers(broken);
    expect(changes.map((change) => [change.path, change.before, change.after])).toEqual([
      ["/rank_count", "4", 4],
      ["/rank_list/1/device_id", "1", 1],
      ["/rank_list/2/level_list/1/net_layer", "1", 1],
    ]);
    expect(codes(fixed)).toEqual(["RT103"]);
    expect(ranks(broken)[1]!.device_id).toBe("1");
    expect(a5Numbers(table()).changes).toEqual([]);
  });

  it("a5RankCount counts rank_list (RT101, RT100 when missing)", () => {
    const wrong = table();
    wrong.rank_count = 9;
    expect(codes(wrong)).toEqual(["RT101"]);
    expect(codes(a5RankCount(wrong).table)).toEqual([]);
    const missing = table();
    delete missing.rank_count;
    expect(codes(missing)).toEqual(["RT100"]);
    expect(a5RankCount(missing).changes).toEqual([{ path: "/rank_count", before: undefined, after: 4 }]);
  });

  it("a5RenumberRanks numbers rank_id 0…N−1 in list order (RT106 duplicate, RT107 out of range, RT108 the gap they leave)", () => {
    const broken = table();
    ranks(broken)[1]!.rank_id = 0;
    ranks(broken)[3]!.rank_id = 7;
    expect(codes(broken).sort()).toEqual(["RT106", "RT107", "RT108"]);
    const { table: fixed, changes } = a5RenumberRanks(broken);
    expect(changes.map((change) => change.path)).toEqual(["/rank_list/1/rank_id", "/rank_list/3/rank_id"]);
    expect(codes(fixed)).toEqual([]);
  });
});
