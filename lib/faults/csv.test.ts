import { describe, expect, it } from "vitest";
import { parseFaultCsv } from "./csv";
import { toCsv } from "./timeline";

describe("fault CSV import", () => {
  it("reads the export's own columns back into API items", () => {
    const text = toCsv(
      ["id", "began_at", "ended_at", "duration_s", "super_pod", "server", "die", "target", "kind", "code", "level", "reported_level", "rule", "phase", "source", "job", "rank", "message"],
      [
        ["simulator:a", "2026-11-20T08:00:00.000Z", "2026-11-20T08:00:30.000Z", "30.000", "0", "sp0-node03", 5, "sp0-node03 / 5", "roce-link-down", "81078603", "PreSeparateNPU", "NotHandleFault", "fault-duration", "", "simulator", "", "", 'flap, "rail 5"'],
        ["", "2026-11-20T09:00:00.000Z", "", "", "1", "", "", "super pod 1", "job-rescheduled", "", "", "", "", "job", "", "llama", "", ""],
      ],
    );
    const result = parseFaultCsv(text, "atlas-a3-demo");
    expect(result.errors).toEqual([]);
    expect(result.rows.map((r) => r.item)).toEqual([
      { cluster: "atlas-a3-demo", kind: "roce-link-down", source: "csv-import", target: { server: "sp0-node03", die: 5 }, beganAt: "2026-11-20T08:00:00.000Z", id: "simulator:a", endedAt: "2026-11-20T08:00:30.000Z", code: "81078603", level: "PreSeparateNPU", message: 'flap, "rail 5"' },
      { cluster: "atlas-a3-demo", kind: "job-rescheduled", source: "csv-import", target: { superPod: "1" }, beganAt: "2026-11-20T09:00:00.000Z", phase: "job", job: "llama" },
    ]);
    expect(result.rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it("reports unreadable numbers per row, a missing header, and unknown columns", () => {
    const result = parseFaultCsv("began_at,kind,server,die,colour\n2026-11-20T08:00:00Z,roce-link-down,sp0-node01,two,red\n", "c");
    expect(result.rows[0]!.errors.map((e) => [e.reason, e.params, e.message])).toEqual([["csv_not_integer", { column: "die", value: "two" }, 'die "two" is not a whole number']]);
    expect(result.unknownColumns).toEqual(["colour"]);
    expect(parseFaultCsv("a,b\n1,2\n", "c").errors[0]).toMatchObject({ reason: "csv_header", message: expect.stringMatching(/began_at and kind/) });
  });

  it("reports an unterminated quote at the line it opens, and rows with more fields than the header (issue 13)", () => {
    const text = 'began_at,kind,message\n2026-11-20T08:00:00Z,job-failed,"two\nlines"\n\n2026-11-20T09:00:00Z,job-failed,a,b\n2026-11-20T10:00:00Z,job-failed,"never closed\n2026-11-20T11:00:00Z,job-failed,x\n';
    const result = parseFaultCsv(text, "c");
    expect(result.rows.map((r) => r.line)).toEqual([2, 5, 6]);
    expect(result.rows[1]!.errors).toMatchObject([{ reason: "csv_extra_fields", params: { line: 5, count: 4, columns: 3 } }]);
    expect(result.errors).toMatchObject([{ reason: "csv_syntax", params: { line: 6 } }]);
  });

  it("imports back what the export neutralised against spreadsheet formulas", () => {
    const text = toCsv(["began_at", "kind", "message"], [["2026-11-20T08:00:00Z", "job-failed", "=cmd|' /C calc'!A0"], ["2026-11-20T08:00:00Z", "job-failed", "\t-2+3"]]);
    expect(text.split("\r\n")[1]).toBe(`2026-11-20T08:00:00Z,job-failed,"'=cmd|' /C calc'!A0"`);
    expect(text.split("\r\n")[2]).toBe(`2026-11-20T08:00:00Z,job-failed,"'\t-2+3"`);
    expect(parseFaultCsv(text, "c").rows.map((r) => r.item.message)).toEqual(["=cmd|' /C calc'!A0", "-2+3"]);
  });
});
