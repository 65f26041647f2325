import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFaultCsv } from "../faults/csv";
import { toCsv } from "../faults/timeline";
import { REPORT_LIMITS } from "../report-limits";
import { check, hostileString, mutated, timeout } from "./shared";

const seedCsv = toCsv(
  ["id", "began_at", "ended_at", "server", "die", "kind", "code", "level", "message"],
  [["a:1", "2026-11-20T08:00:00Z", "", "sp0-node01", 3, "roce-link-down", "81078603", "NotHandleFault", "=cmd|' /C calc'!A0"]],
);

describe("fuzzing the fault CSV import (issue 13)", () => {
  it("fault CSV import: never throws, every row keeps its line, problems stay bounded", () => {
    const csv = fc.oneof(
      { weight: 4, arbitrary: mutated(seedCsv) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
      { weight: 1, arbitrary: fc.array(fc.array(hostileString, { maxLength: 8 }), { maxLength: 10 }).map((rows) => toCsv(["began_at", "kind", "message"], rows)) },
    );
    check(
      "csv",
      fc.property(csv, (text) => {
        const parsed = parseFaultCsv(text, "c");
        expect(parsed.errors.length).toBeLessThanOrEqual(REPORT_LIMITS.total + 1);
        let previous = 1;
        for (const row of parsed.rows) {
          expect(row.line).toBeGreaterThan(previous);
          previous = row.line;
        }
      }),
    );
  }, timeout);
});
