import { describe, expect, it } from "vitest";
import { naturalCompare } from "./natural-order";

describe("naturalCompare", () => {
  it("orders the numbers inside names by value", () => {
    expect(["node_10", "node_9", "node_100", "node_1"].sort(naturalCompare)).toEqual(["node_1", "node_9", "node_10", "node_100"]);
  });

  it("orders the parts before and after a number too", () => {
    expect(["sp1-rack2", "sp10-rack1", "sp1-rack10", "sp2-rack1"].sort(naturalCompare)).toEqual(["sp1-rack2", "sp1-rack10", "sp2-rack1", "sp10-rack1"]);
  });
});
