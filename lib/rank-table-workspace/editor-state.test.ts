import { describe, expect, it } from "vitest";
import { generateFromTemplate, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { applyEditTo, NO_STRUCTURE, redoEdit, showTable, startEditing, undoEdit } from "./editor-state";

const table = () => generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, npusPerServer: 2 }) as unknown as JsonObject;
const setIp = { type: "set", path: { server: 1, device: 0 }, field: "device_ip", value: "10.9.9.9" } as const;
const ipOf = (value: JsonValue) => (value as { server_list: { device: { device_ip: string }[] }[] }).server_list[1]!.device[0]!.device_ip;

describe("editor state", () => {
  it("an edit is undoable, remembers itself for the worker and keeps the rows it did not touch", () => {
    const opened = startEditing(table());
    expect(opened.history.past).toEqual([]);
    expect(opened.lastEdit).toBeUndefined();
    const edited = applyEditTo(opened, setIp);
    expect(ipOf(edited.history.present)).toBe("10.9.9.9");
    expect(edited.history.past).toEqual([opened.history.present]);
    expect(edited.lastEdit).toEqual({ edit: setIp, from: opened.history.present });
    expect(edited.structure.rows[0]).toBe(opened.structure.rows[0]);
    const touched = (state: typeof opened) => state.structure.rows.find((row) => row.key === "1/0");
    expect(touched(edited)).toBeDefined();
    expect(touched(edited)).not.toBe(touched(opened));
  });

  it("an edit, undo or redo that changes nothing returns the same state", () => {
    const opened = startEditing(table());
    expect(applyEditTo(opened, { type: "removeDevice", server: 9, device: 0 })).toBe(opened);
    expect(undoEdit(opened)).toBe(opened);
    expect(redoEdit(opened)).toBe(opened);
  });

  it("undo and redo walk the history and forget the last edit", () => {
    const opened = startEditing(table());
    const edited = applyEditTo(opened, setIp);
    const undone = undoEdit(edited);
    expect(undone.history.present).toBe(opened.history.present);
    expect(undone.lastEdit).toBeUndefined();
    expect(undone.structure.rows[0]).toBe(edited.structure.rows[0]);
    const redone = redoEdit(undone);
    expect(redone.history.present).toBe(edited.history.present);
    expect(redone.history.future).toEqual([]);
    expect(redone.lastEdit).toBeUndefined();
  });

  it("a table from elsewhere is one undoable step without an edit; text that is not JSON opens with no structure", () => {
    const opened = startEditing(table());
    const other = table();
    const shown = showTable(applyEditTo(opened, setIp), other);
    expect(shown.history.present).toBe(other);
    expect(shown.history.past).toHaveLength(2);
    expect(shown.lastEdit).toBeUndefined();
    expect(undoEdit(shown).history.present).not.toBe(other);
    const notJson = startEditing(null);
    expect(notJson.structure.rows).toEqual([]);
    expect(notJson.structure).toEqual(NO_STRUCTURE);
  });
});
