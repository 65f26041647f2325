import { describe, expect, it } from "vitest";
import { affinityQuery, affinitySearchParams } from "./url";

const parse = (query: string) => affinitySearchParams.parse(Object.fromEntries(new URLSearchParams(query)));

describe("the affinity page's URL", () => {
  it("round-trips a chosen server and a plan's options", () => {
    const state = parse("cluster=atlas-a2-demo&server=a2-node0&tab=plan&npus=0-7&processes=4&reserve=2&mode=2");
    expect(state).toEqual({ cluster: "atlas-a2-demo", server: "a2-node0", tab: "plan", npus: "0-7", processes: 4, reserve: 2, mode: 2 });
    expect(parse(affinityQuery(state))).toEqual(state);
  });

  it("keeps a typed value with its commas and colons", () => {
    const state = parse(affinityQuery({ value: "mode:1,npu0:144-155", visible: "4,5", jobNpus: "4-5" }));
    expect(state).toMatchObject({ tab: "check", value: "mode:1,npu0:144-155", visible: "4,5", jobNpus: "4-5", reserve: 0, mode: 1 });
  });

  it("drops what is malformed and leaves defaults out of links", () => {
    expect(parse("cluster=Bad Slug&tab=nope&reserve=-3&mode=7&processes=0")).toEqual({ tab: "check", reserve: 0, mode: 1 });
    expect(affinityQuery({ tab: "check", reserve: 0, mode: 1 })).toBe("");
    // A server without its cluster names nothing.
    expect(affinityQuery({ server: "a2-node0" })).toBe("");
  });
});
