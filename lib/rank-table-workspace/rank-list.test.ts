import { describe, expect, it } from "vitest";
import { generateA5Table, validateRankTable, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { A5_EDIT_FIELDS, applyEdit } from "./edit";
import { indexIssues, rankIssueTarget, rowFieldPath, tableStructure } from "./structure";

/** A "2.0" table of 2 racks × 3 NPUs, as parsed JSON. */
const a5 = (): JsonValue => JSON.parse(JSON.stringify(generateA5Table({ racks: 2, npusPerRack: 3 }))) as JsonValue;
const rank = (table: JsonValue, index: number) => ((table as JsonObject).rank_list as JsonObject[])[index]!;

describe("the grid over a 2.0 rank_list", () => {
  it("has a row per rank, keyed by its place in rank_list, grouped by net_layer 0 instance, with the rank's fields as columns", () => {
    const structure = tableStructure(a5());
    expect(structure.fields).toEqual(A5_EDIT_FIELDS);
    expect(structure.rows.map((row) => row.key)).toEqual(["r0", "r1", "r2", "r3", "r4", "r5"]);
    expect(structure.servers.map((server) => [server.serverId, server.rowCount])).toEqual([["superpod0-rack0", 3], ["superpod0-rack1", 3]]);
    expect(structure.rows[4]).toMatchObject({ serverId: "superpod0-rack1", rank: 4, values: { rank_id: "4", local_id: "1", device_id: "1" } });
    expect(rowFieldPath(structure.rows[4]!, "device_id")).toBe("/rank_list/4/device_id");
    expect(tableStructure({ version: "1.0", server_list: [] }).fields).toBeUndefined();
  });

  it("writes an edited whole number as a JSON number, shares untouched ranks, and a finding appears and clears with the edit", () => {
    const table = a5();
    const broken = applyEdit(table, { type: "setRank", rank: 1, field: "device_id", value: "70" });
    expect(rank(broken, 1).device_id).toBe(70);
    expect(rank(broken, 0)).toBe(rank(table, 0));
    const report = validateRankTable(broken as JsonObject);
    expect(report.issues.map((issue) => [issue.code, issue.path])).toEqual([["RT110", "/rank_list/1/device_id"]]);
    const index = indexIssues(report.issues);
    expect(index.byRow.get("r1")).toBe("error");
    expect(rankIssueTarget("/rank_list/1/device_id")).toEqual({ rowKey: "r1", field: "device_id" });

    const fixed = applyEdit(broken, { type: "setRank", rank: 1, field: "device_id", value: "1" });
    expect(validateRankTable(fixed as JsonObject).issues).toEqual([]);
  });

  it("keeps text that is not a whole number as text, for the validator to report (RT103), and removes a field given nothing", () => {
    const typed = applyEdit(a5(), { type: "setRank", rank: 0, field: "host_port", value: "16a" });
    expect(rank(typed, 0).host_port).toBe("16a");
    expect(validateRankTable(typed as JsonObject).issues.map((issue) => issue.code)).toContain("RT103");
    const cleared = applyEdit(typed, { type: "setRank", rank: 0, field: "host_port", value: undefined });
    expect(Object.hasOwn(rank(cleared, 0), "host_port")).toBe(false);
  });

  it("removes a rank and keeps rank_count in step when it counted the list", () => {
    const removed = applyEdit(a5(), { type: "removeRank", rank: 5 }) as JsonObject;
    expect((removed.rank_list as JsonValue[]).length).toBe(5);
    expect(removed.rank_count).toBe(5);
    expect(validateRankTable(removed).issues).toEqual([]);
  });

  it("after an edit re-derives only the edited rank's row: other rows, servers and pods keep their objects", () => {
    const table = a5();
    const before = tableStructure(table);
    const edited = applyEdit(table, { type: "setRank", rank: 4, field: "device_id", value: "9" });
    const after = tableStructure(edited, before);
    expect(after.rows[4]).not.toBe(before.rows[4]);
    expect(after.rows[4]).toMatchObject({ key: "r4", rank: 4, serverId: "superpod0-rack1", values: { device_id: "9", local_id: "1" } });
    expect(after.rows.filter((row, index) => row !== before.rows[index]).map((row) => row.key)).toEqual(["r4"]);
    expect(after.servers).toBe(before.servers);
    expect(after.pods).toBe(before.pods);
    // The same rows as deriving from scratch.
    expect(after.rows).toEqual(tableStructure(edited).rows);
  });

  it("derives the grid again when an edit regroups ranks or changes their number", () => {
    const table = a5();
    const before = tableStructure(table);
    const moved = JSON.parse(JSON.stringify(table)) as JsonObject;
    const list = moved.rank_list as JsonObject[];
    // Share the untouched ranks, as the edit helpers do, and move rank 0 into rack 1.
    (moved.rank_list as JsonValue[]) = list.map((entry, index) => (index === 0 ? entry : rank(table, index)));
    ((list[0]!.level_list as JsonObject[])[0]!).net_instance_id = "superpod0-rack1";
    const regrouped = tableStructure(moved, before);
    expect(regrouped.servers.map((server) => [server.serverId, server.rowCount])).toEqual([["superpod0-rack1", 4], ["superpod0-rack0", 2]]);
    expect(regrouped).toEqual(tableStructure(moved));

    const removed = applyEdit(table, { type: "removeRank", rank: 2 });
    const shorter = tableStructure(removed, before);
    expect(shorter.rows.map((row) => [row.key, row.values.rank_id])).toEqual([["r0", "0"], ["r1", "1"], ["r2", "3"], ["r3", "4"], ["r4", "5"]]);
    expect(shorter).toEqual(tableStructure(removed));
  });
});
