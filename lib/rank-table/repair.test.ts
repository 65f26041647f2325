import { describe, expect, it } from "vitest";
import type { JsonObject } from "./model";
import { assignPorts, pairBackups, recomputeServerCount, renumberRanks } from "./repair";
import { aiServerTable, edit, superPodTable } from "./test-support/tables";
import { validateRankTable } from "./validate";

const codes = (table: Parameters<typeof validateRankTable>[0]) => validateRankTable(table).issues.map((issue) => issue.code);
const dev = (server: number, device: number, field: string) => `/server_list/${server}/device/${device}/${field}`;

describe("renumberRanks", () => {
  it("numbers ranks in server order, then by device_id, and lists what changed", () => {
    const shuffled = edit(aiServerTable(), {
      [dev(0, 0, "device_id")]: "1", [dev(0, 1, "device_id")]: "0",
      [dev(0, 0, "rank_id")]: "7", [dev(1, 0, "rank_id")]: 0, [dev(1, 1, "rank_id")]: undefined,
    });
    expect(codes(shuffled)).toEqual(expect.arrayContaining(["RT003", "RT044", "RT047", "RT048"]));
    const { table, changes } = renumberRanks(shuffled);
    expect(codes(table)).toEqual([]);
    expect(changes).toEqual([
      { path: dev(0, 1, "rank_id"), before: "1", after: "0" },
      { path: dev(0, 0, "rank_id"), before: "7", after: "1" },
      { path: dev(1, 0, "rank_id"), before: 0, after: "2" },
      { path: dev(1, 1, "rank_id"), before: undefined, after: "3" },
    ]);
    expect((shuffled.server_list as JsonObject[])[1]!.device).toContainEqual({ device_id: "0", device_ip: "192.168.2.8", device_port: "16667", host_port: "16666", rank_id: 0 });
  });

  it("changes nothing on a table in order", () => {
    expect(renumberRanks(superPodTable()).changes).toEqual([]);
  });
});

describe("pairBackups", () => {
  it("names the other die of the same NPU (2k <-> 2k+1) and removes backups that cannot be right", () => {
    const broken = edit(superPodTable(), {
      [dev(0, 0, "backup_device_ip")]: "192.168.1.8",
      [dev(0, 2, "backup_device_ip")]: "192.168.1.8",
      [dev(1, 1, "backup_device_ip")]: "not an ip",
      [dev(2, 3, "backup_device_ip")]: undefined,
    });
    expect(codes(broken)).toEqual(expect.arrayContaining(["RT050", "RT051", "RT052", "RT053", "RT054"]));
    const { table, changes } = pairBackups(broken);
    expect(codes(table)).toEqual([]);
    expect(changes).toContainEqual({ path: dev(0, 0, "backup_device_ip"), before: "192.168.1.8", after: "192.168.1.7" });
    expect(changes).toContainEqual({ path: dev(2, 3, "backup_device_ip"), before: undefined, after: "192.168.3.8" });
  });

  it("keeps a backup on a die of another job (RT055) and drops one without a partner", () => {
    const table = edit(superPodTable(), { [dev(0, 3, "backup_device_ip")]: "192.168.9.9", [dev(0, 3, "device_id")]: "5" });
    const result = pairBackups(table);
    expect(codes(result.table)).toEqual(["RT055"]);
    expect(result.changes).toEqual([
      { path: dev(0, 2, "backup_device_ip"), before: "192.168.1.9", after: undefined },
      { path: dev(0, 2, "backup_device_port"), before: "16670", after: undefined },
    ]);
  });

  it("removes backup fields from version 1.0, where HCCL ignores them", () => {
    const table = edit(aiServerTable(), { [dev(0, 0, "backup_device_ip")]: "192.168.1.9", [dev(0, 1, "backup_device_port")]: "16670" });
    expect(codes(pairBackups(table).table)).toEqual([]);
  });
});

describe("assignPorts", () => {
  it("assigns three conflict-free blocks from the base port", () => {
    const broken = edit(superPodTable(), {
      [dev(0, 1, "backup_device_port")]: "16666", [dev(0, 1, "host_port")]: "16665", [dev(1, 0, "device_port")]: "80", [dev(1, 1, "device_port")]: "99999",
    });
    expect(codes(broken)).toEqual(expect.arrayContaining(["RT040", "RT041", "RT042", "RT043"]));
    const { table } = assignPorts(broken, { basePort: 20000 });
    expect(codes(table)).toEqual([]);
    const device = ((table as { server_list: JsonObject[] }).server_list[1]!.device as JsonObject[])[3];
    expect(device).toMatchObject({ host_port: "20003", device_port: "20007", backup_device_port: "20011" });
  });

  it("never uses the reserved range and refuses ports above 65535", () => {
    const { table } = assignPorts(aiServerTable(), { basePort: 80 });
    expect(((table as { server_list: JsonObject[] }).server_list[0]!.device as JsonObject[])[0]).toMatchObject({ host_port: "1024", device_port: "1026" });
    expect(() => assignPorts(superPodTable(), { basePort: 65530 })).toThrow(RangeError);
  });
});

describe("recomputeServerCount", () => {
  it("sets server_count to the number of servers", () => {
    const { table, changes } = recomputeServerCount(edit(aiServerTable(), { "/server_count": undefined }));
    expect(codes(table)).toEqual([]);
    expect(changes).toEqual([{ path: "/server_count", before: undefined, after: "2" }]);
  });
});
