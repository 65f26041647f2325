import { describe, expect, it } from "vitest";
import { generationOfModel, hardwareFit } from "./hardware-fit";

const V10 = { version: "1.0", mode: "ai-server" } as const;
const V12 = { version: "1.2", mode: "super-pod" } as const;
const V20 = { version: "2.0", mode: "super-pod", layout: "2.0" } as const;

describe("hardwareFit (CL001)", () => {
  it("knows the generation of each server model", () => {
    expect([generationOfModel("Atlas 800T A2"), generationOfModel("Atlas 800T A3"), generationOfModel("Atlas 950 SuperPoD"), generationOfModel("Atlas 200")]).toEqual(["A2", "A3", "A5", undefined]);
  });

  it("flags a 1.x table on an A5 cluster and a 2.0 table on A2/A3 as errors", () => {
    expect(hardwareFit(V10, "big", ["Atlas 950 SuperPoD"], "en")).toMatchObject({ code: "CL001", severity: "error", message: expect.stringContaining("EI0014") });
    expect(hardwareFit(V20, "old", ["Atlas 800T A3"], "zh")).toMatchObject({ severity: "error", message: expect.stringContaining("不适用于集群 old") });
    expect(hardwareFit({ version: null, mode: "ai-server", layout: "legacy-tensorflow" }, "big", ["Atlas 950"], "en")?.message).toContain("legacy-tensorflow");
  });

  it("warns about super pod mode on A2, and passes what fits", () => {
    expect(hardwareFit(V12, "a2", ["Atlas 800T A2"], "en")).toMatchObject({ severity: "warning" });
    expect(hardwareFit(V12, "a3", ["Atlas 800T A3"], "en")).toBeUndefined();
    expect(hardwareFit(V10, "a2", ["Atlas 800T A2"], "en")).toBeUndefined();
    expect(hardwareFit(V20, "a5", ["Atlas 950 SuperPoD"], "en")).toBeUndefined();
    expect(hardwareFit(V20, "empty", [], "en")).toBeUndefined();
  });
});
