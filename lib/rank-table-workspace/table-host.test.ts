import { describe, expect, it } from "vitest";
import { generateA5Table, type JsonValue } from "@/lib/rank-table";
import { generateFromTemplate } from "@/lib/rank-table/generate";
import { TableHost } from "./table-host";

const a5 = () => generateA5Table({ racks: 2, npusPerRack: 8 }) as unknown as JsonValue;

describe("TableHost", () => {
  it("summarises a 2.0 table without its rows and answers rows by range", () => {
    const host = new TableHost(a5());
    const summary = host.summary();
    expect(summary).toMatchObject({ rows: 16, rankList: true, revision: 0, canUndo: false, canRedo: false });
    expect(summary.pods[0]!.servers.map((server) => server.rowCount).reduce((a, b) => a + b)).toBe(16);
    expect(JSON.stringify(summary)).not.toContain("level_list");
    const { total, rows } = host.rows(undefined, 3, 6);
    expect(total).toBe(16);
    expect(rows.map((row) => row.key)).toEqual(["r3", "r4", "r5"]);
    expect(host.rows(undefined, 14, 100).rows.map((row) => row.key)).toEqual(["r14", "r15"]);
  });

  it("applies edits with undo and redo, each a new revision, and sees the tree unchanged by a field edit", () => {
    const host = new TableHost(a5());
    const before = host.summary();
    expect(host.edit({ type: "setRank", rank: 2, field: "device_port", value: "17000" })).toBe(true);
    expect(host.rows(undefined, 2, 3).rows[0]!.values.device_port).toBe("17000");
    expect(host.treeChangedSince(before)).toBe(false);
    expect(host.summary()).toMatchObject({ revision: 1, canUndo: true, canRedo: false });
    expect(host.undo()).toBe(true);
    expect(host.rows(undefined, 2, 3).rows[0]!.values.device_port).not.toBe("17000");
    expect(host.summary()).toMatchObject({ revision: 2, canUndo: false, canRedo: true });
    expect(host.redo()).toBe(true);
    expect(host.rows(undefined, 2, 3).rows[0]!.values.device_port).toBe("17000");
    expect(host.undo() && host.undo()).toBe(false);
    expect(host.edit({ type: "removeRank", rank: 0 })).toBe(true);
    expect(host.treeChangedSince(before)).toBe(true);
    expect(host.summary().rows).toBe(15);
  });

  it("answers a server's rows and locates a finding's row and field", () => {
    const table = generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, basePort: 16000 }) as unknown as JsonValue;
    const host = new TableHost(table);
    const server = host.summary().pods[1]!.servers[0]!;
    const { total, rows } = host.rows(`server:${server.index}`, 0, 100);
    expect(total).toBe(server.rowCount);
    expect(rows.every((row) => row.server === server.index)).toBe(true);
    expect(host.locate(undefined, `/server_list/${server.index}/device/1/device_ip`)).toEqual({ index: server.firstRow + 1, rowKey: `${server.index}/1`, field: "device_ip" });
    expect(host.locate(`server:${server.index}`, `/server_list/${server.index}/device/1/device_ip`).index).toBe(1);
    expect(host.locate(undefined, "/version").index).toBe(-1);
  });
});
