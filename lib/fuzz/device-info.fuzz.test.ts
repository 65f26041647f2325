import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DeviceInfoError, parseDeviceInfo } from "../faults/device-info";
import { REPORT_LIMITS } from "../report-limits";
import { check, deepText, mutated, timeout } from "./shared";

const seedDeviceInfo = readFileSync(new URL("../faults/fixtures/device-info-a3-sample.json", import.meta.url), "utf8");

describe("fuzzing the device-info parser (issue 13)", () => {
  it("device-info: only DeviceInfoError, and warnings stay bounded", () => {
    const input = fc.oneof(
      { weight: 4, arbitrary: mutated(seedDeviceInfo) },
      { weight: 2, arbitrary: fc.json({ depthSize: "small" }) },
      { weight: 1, arbitrary: fc.anything() },
      { weight: 1, arbitrary: deepText },
    );
    check(
      "device-info",
      fc.property(input, (value) => {
        try {
          const snapshot = parseDeviceInfo(value);
          expect(snapshot.warnings.length).toBeLessThanOrEqual(REPORT_LIMITS.total);
        } catch (error) {
          if (!(error instanceof DeviceInfoError)) throw error;
        }
      }),
    );
  }, timeout);
});
