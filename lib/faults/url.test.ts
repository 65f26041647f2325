import { describe, expect, it } from "vitest";
import { faultsQuery, faultsSearchParams } from "./url";

describe("faults URL state", () => {
  it("round-trips a view", () => {
    const state = faultsSearchParams.parse({ cluster: "atlas-a3-demo", tab: "statistics", from: "1000", to: "2000", kind: "roce-link-down,hccl-error", level: "SeparateNPU", state: "open", open: "pod:0,server:sp0-node01", sel: "simulator:x" });
    expect(faultsSearchParams.parse(Object.fromEntries(new URLSearchParams(faultsQuery(state))))).toEqual(state);
  });

  it("drops what it does not understand instead of failing", () => {
    const state = faultsSearchParams.parse({ tab: "nope", kind: "made-up,hccl-error", from: "-5", state: "weird" });
    expect(state).toMatchObject({ tab: "timeline", kind: ["hccl-error"], from: undefined, state: "all" });
    expect(faultsQuery(state)).toBe("kind=hccl-error");
  });
});
