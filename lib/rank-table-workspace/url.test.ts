import { describe, expect, it } from "vitest";
import { rankTableListQuery, rankTableListSearchParams } from "./url";

describe("the rank table list's URL state", () => {
  it("round-trips the name and cluster filters", () => {
    for (const state of [{ q: "pod 3", linked: 7 }, { linked: "none" as const }, {}]) {
      expect(rankTableListSearchParams.parse(Object.fromEntries(new URLSearchParams(rankTableListQuery(state))))).toEqual(state);
    }
  });

  it("drops what it cannot read instead of failing the page", () => {
    expect(rankTableListSearchParams.parse({ linked: "atlas", q: "x".repeat(500) })).toEqual({});
    expect(rankTableListSearchParams.parse({ linked: "-3" })).toEqual({});
  });
});
