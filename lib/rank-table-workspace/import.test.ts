import { describe, expect, it } from "vitest";
import { importRankTable } from "./import";

describe("importing text into the editor", () => {
  it("parses commented text, keeps the comment findings apart from the table's report and says when it validates", () => {
    const stages: string[] = [];
    const imported = importRankTable('// from the cluster\n{"status":"completed","version":"1.0","server_list":[]}', "en", () => stages.push("validating"));
    expect(stages).toEqual(["validating"]);
    expect(imported.table).toEqual({ status: "completed", version: "1.0", server_list: [] });
    expect(imported.notes.map((issue) => [issue.code, issue.line])).toEqual([["RT001", 1]]);
    expect(imported.report?.issues.map((issue) => issue.code)).not.toContain("RT001");
    expect(imported.report?.issues.map((issue) => issue.code)).toContain("RT017");
  });

  it("gives no table for text that is not JSON, without validating", () => {
    const stages: string[] = [];
    expect(importRankTable('{"status": ', "en", () => stages.push("validating"))).toEqual({ table: undefined, notes: [], report: undefined });
    expect(stages).toEqual([]);
  });
});
