import { describe, expect, it } from "vitest";
import { importRankTable } from "./import";

describe("importing text into the editor", () => {
  it("parses commented text, hands over the table before validating it, and keeps the comment findings apart from the report", () => {
    const parsed: unknown[] = [];
    const imported = importRankTable('// from the cluster\n{"status":"completed","version":"1.0","server_list":[]}', "en", (table) => parsed.push(table));
    expect(parsed).toEqual([imported.table]);
    expect(imported.table).toEqual({ status: "completed", version: "1.0", server_list: [] });
    expect(imported.notes.map((issue) => [issue.code, issue.line])).toEqual([["RT001", 1]]);
    expect(imported.report?.issues.map((issue) => issue.code)).not.toContain("RT001");
    expect(imported.report?.issues.map((issue) => issue.code)).toContain("RT017");
  });

  it("gives no table for text that is not JSON, without validating", () => {
    const parsed: unknown[] = [];
    expect(importRankTable('{"status": ', "en", (table) => parsed.push(table))).toEqual({ table: undefined, notes: [], report: undefined });
    expect(parsed).toEqual([]);
  });
});
