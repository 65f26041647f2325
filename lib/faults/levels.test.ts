import { describe, expect, it } from "vitest";
import { networkFaultDefaults } from "./escalation-defaults";
import { faultLevelInfo, faultLevels } from "./levels";

describe("fault levels", () => {
  it("describe every MindCluster level in both languages", () => {
    expect(Object.keys(faultLevelInfo).sort()).toEqual([...faultLevels].sort());
    for (const info of Object.values(faultLevelInfo)) {
      expect(info.effect.en && info.effect.zh && info.handling.en && info.handling.zh).toBeTruthy();
    }
  });

  it("never present a fault level as healthy", () => {
    expect(faultLevels.filter((level) => faultLevelInfo[level].tone === "healthy")).toEqual([]);
  });

  it("escalate network faults to levels that exist", () => {
    expect(faultLevels).toContain(networkFaultDefaults.escalatedHandling);
    expect(faultLevels).toContain(networkFaultDefaults.frequency.handling);
  });
});
