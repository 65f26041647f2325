import { describe, expect, it } from "vitest";
import { generateFromTemplate, validateRankTable, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { diffTables } from "./diff";
import { applyEdit, pushHistory, redo, startHistory, undo } from "./edit";

const table = () => generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, npusPerServer: 2 }) as unknown as JsonObject;
const servers = (value: JsonValue) => (value as { server_list: { server_id: string; device: Record<string, string>[] }[] }).server_list;
const pods = (value: JsonValue) => (value as { super_pod_list: { super_pod_id: string; server_list: { server_id: string }[] }[] }).super_pod_list;

describe("edits", () => {
  it("sets a device field and shares every untouched server", () => {
    const before = table();
    const after = applyEdit(before, { type: "set", path: { server: 1, device: 0 }, field: "device_ip", value: "10.9.9.9" });
    expect(servers(after)[1]!.device[0]!.device_ip).toBe("10.9.9.9");
    expect(servers(before)[1]!.device[0]!.device_ip).not.toBe("10.9.9.9");
    expect(servers(after)[0]).toBe(servers(before)[0]);
    expect(Object.keys(servers(after)[1]!.device[0]!)).toEqual(Object.keys(servers(before)[1]!.device[0]!));
    const removed = applyEdit(after, { type: "set", path: { server: 1, device: 0 }, field: "host_port", value: undefined });
    expect(servers(removed)[1]!.device[0]).not.toHaveProperty("host_port");
  });

  it("renaming a server renames it in its super pod; moving keeps pods contiguous and valid", () => {
    const renamed = applyEdit(table(), { type: "set", path: { server: 0 }, field: "server_id", value: "gpu-a" });
    expect(pods(renamed)[0]!.server_list[0]!.server_id).toBe("gpu-a");
    const moved = applyEdit(table(), { type: "moveServer", server: 0, pod: 1 });
    expect(servers(moved).map((s) => s.server_id)).toEqual(["node_1", "node_2", "node_3", "node_0"]);
    expect(pods(moved).map((p) => p.server_list.map((m) => m.server_id))).toEqual([["node_1"], ["node_2", "node_3", "node_0"]]);
    const codes = validateRankTable(moved).issues.map((issue) => issue.code);
    expect(codes).not.toContain("RT065");
    expect(codes).not.toContain("RT064");
  });

  it("adds and removes servers and dies", () => {
    const added = applyEdit(table(), { type: "addServer", pod: 0 });
    expect(servers(added).map((s) => s.server_id)).toEqual(["node_0", "node_1", "new_server_4", "node_2", "node_3"]);
    expect(servers(added)[2]!.device).toHaveLength(4);
    expect(pods(added)[0]!.server_list.map((m) => m.server_id)).toContain("new_server_4");
    const removed = applyEdit(added, { type: "removeServer", server: 2 });
    expect(removed).toEqual(table());
    const withDie = applyEdit(table(), { type: "addDevice", server: 0 });
    expect(servers(withDie)[0]!.device.map((d) => d.device_id)).toEqual(["0", "1", "2", "3", "4"]);
    const withoutDie = applyEdit(withDie, { type: "removeDevice", server: 0, device: 4 });
    expect(withoutDie).toEqual(table());
  });

  it("undo and redo walk the snapshots", () => {
    let history = startHistory(table());
    const first = history.present;
    history = pushHistory(history, applyEdit(history.present, { type: "set", path: {}, field: "status", value: "initializing" }));
    const second = history.present;
    history = undo(history);
    expect(history.present).toBe(first);
    history = redo(history);
    expect(history.present).toBe(second);
    expect(undo(undo(undo(history))).present).toBe(first);
  });
});

describe("structural diff", () => {
  it("names added, removed and moved servers, dies and changed fields by their ids", () => {
    let after: JsonValue = table();
    after = applyEdit(after, { type: "set", path: { server: 3, device: 1 }, field: "device_ip", value: "10.0.0.99" });
    after = applyEdit(after, { type: "removeServer", server: 1 });
    after = applyEdit(after, { type: "addDevice", server: 0 });
    after = applyEdit(after, { type: "moveServer", server: 0, pod: 1 });
    const diff = diffTables(table(), after);
    expect(diff.counts).toEqual({ serversAdded: 0, serversRemoved: 1, devicesAdded: 1, devicesRemoved: 0, fieldsChanged: 1, serversMoved: 1 });
    expect(diff.entries).toContainEqual({ kind: "field", scope: "device", serverId: "node_3", deviceId: "1", field: "device_ip", before: "10.0.3.1", after: "10.0.0.99" });
    expect(diff.entries).toContainEqual({ kind: "server-removed", serverId: "node_1", devices: 4 });
    expect(diff.entries).toContainEqual({ kind: "server-moved", serverId: "node_0", before: "0", after: "1" });
    expect(diffTables(table(), table()).entries).toEqual([]);
  });
});

describe("three-way merge", () => {
  it("replays my changes onto theirs and lists fields both changed", async () => {
    const { mergeTables } = await import("./merge");
    const base = table();
    let mine: JsonValue = applyEdit(base, { type: "set", path: { server: 0, device: 0 }, field: "host_port", value: "20000" });
    mine = applyEdit(mine, { type: "set", path: { server: 1, device: 1 }, field: "device_ip", value: "10.1.1.1" });
    mine = applyEdit(mine, { type: "addServer", pod: 1 });
    let theirs: JsonValue = applyEdit(base, { type: "set", path: { server: 1, device: 1 }, field: "device_ip", value: "10.2.2.2" });
    theirs = applyEdit(theirs, { type: "set", path: { server: 3 }, field: "host_ip", value: "172.16.9.9" });
    const merged = mergeTables(base, mine, theirs);
    expect(servers(merged.table)[0]!.device[0]!.host_port).toBe("20000");
    expect(servers(merged.table)[1]!.device[1]!.device_ip).toBe("10.1.1.1");
    expect((servers(merged.table)[3] as unknown as { host_ip: string }).host_ip).toBe("172.16.9.9");
    expect(servers(merged.table).map((s) => s.server_id)).toContain("new_server_4");
    expect(pods(merged.table)[1]!.server_list.map((m) => m.server_id)).toContain("new_server_4");
    expect(merged.conflicts).toEqual([expect.objectContaining({ serverId: "node_1", deviceId: "1", field: "device_ip", after: "10.1.1.1" })]);
  });
});
