import { describe, expect, it } from "vitest";
import { generateA5Table, writeRankTable } from "@/lib/rank-table";
import type { A5RankTable } from "@/lib/rank-table/a5-model";
import { tableFromInventory } from "@/lib/rank-table-workspace/from-inventory";
import { a5TableFromInventory } from "./export";
import { diffInventory, inventoryFromRankTable } from "./import";

/** Two racks of four NPUs: the generator's Atlas 950 shape (level 0 the rack, level 1 the SuperPoD, two dies' EIDs per level). */
const table = (): A5RankTable => generateA5Table({ racks: 2, npusPerRack: 4 });

describe("inventory from a 2.0 (A5) rank table", () => {
  it("makes a rank an NPU with one die, a net_layer 0 instance a server, a net_layer 1 instance a super pod", () => {
    const { inventory, issues } = inventoryFromRankTable(writeRankTable(table()));
    expect(issues.filter((issue) => issue.severity === "error")).toEqual([]);
    expect(inventory!.mode).toBe("super-pod");
    expect(inventory!.superPodIds).toEqual(["superpod0"]);
    expect(inventory!.servers.map((server) => [server.serverId, server.model, server.superPodId, server.npus.length])).toEqual([
      ["superpod0-rack0", "Atlas 950", "superpod0", 4],
      ["superpod0-rack1", "Atlas 950", "superpod0", 4],
    ]);
    const npu = inventory!.servers[1]!.npus[2]!;
    expect(npu.npuIndex).toBe(2);
    expect(npu.dies).toHaveLength(1);
    expect(npu.dies[0]).toMatchObject({ deviceId: 2, dieIndex: 0, deviceIp: null });
    expect(npu.dies[0]!.netLevels!.map((level) => [level.netLayer, level.netInstanceId, level.netType, level.addresses.map((address) => address.planeId)])).toEqual([
      [0, "superpod0-rack1", "TOPO_FILE_DESC", ["plane0", "plane1"]],
      [1, "superpod0", "CLOS", ["plane0", "plane1"]],
    ]);
    expect(npu.dies[0]!.netLevels![1]!.addresses[1]).toEqual({ addrType: "EID", addr: table().rank_list[6]!.level_list[1]!.rank_addr_list[1]!.addr, ports: ["1/4", "1/5", "1/6", "1/7"], planeId: "plane1" });
  });

  it("links each level where the table gives it: a ring per server at level 0, the same local_id of neighbouring servers at level 1", () => {
    const { inventory } = inventoryFromRankTable(writeRankTable(table()));
    const links = inventory!.links;
    expect(links.filter((link) => link.kind === "net-layer-0")).toHaveLength(8);
    expect(links.filter((link) => link.kind === "net-layer-1")).toEqual(
      [0, 1, 2, 3].map((deviceId) => ({ kind: "net-layer-1", source: { serverId: "superpod0-rack0", deviceId }, target: { serverId: "superpod0-rack1", deviceId } })),
    );
    expect(links.some((link) => link.kind === "hccs" || link.kind === "roce" || link.kind === "backup-rail")).toBe(false);
  });

  it("runs in AI Server mode without net_layer 1, and draws no level 1 links", () => {
    const single = table();
    for (const rank of single.rank_list) rank.level_list = rank.level_list.slice(0, 1);
    const { inventory } = inventoryFromRankTable(writeRankTable(single));
    expect(inventory!.mode).toBe("ai-server");
    expect(inventory!.superPodIds).toEqual([]);
    expect(inventory!.servers.every((server) => server.superPodId === null)).toBe(true);
    expect(inventory!.links.every((link) => link.kind === "net-layer-0")).toBe(true);
  });

  it("orders NPUs by local_id and servers by their first rank, whatever the order of rank_list", () => {
    const shuffled = table();
    shuffled.rank_list.reverse();
    const { inventory } = inventoryFromRankTable(writeRankTable(shuffled));
    expect(inventory!.servers[0]!.serverId).toBe("superpod0-rack0");
    expect(inventory!.servers[0]!.npus.map((npu) => npu.npuIndex)).toEqual([0, 1, 2, 3]);
  });

  it("refuses a 2.0 table with errors (a duplicate EID, RT124)", () => {
    const broken = table();
    broken.rank_list[1]!.level_list[0]!.rank_addr_list[0]!.addr = broken.rank_list[0]!.level_list[0]!.rank_addr_list[0]!.addr;
    const { inventory, issues } = inventoryFromRankTable(writeRankTable(broken));
    expect(inventory).toBeNull();
    expect(issues.map((issue) => issue.code)).toContain("RT124");
  });

  it("shows a changed address of a rank as a change of its die's network levels", () => {
    const before = inventoryFromRankTable(writeRankTable(table())).inventory!;
    const changed = table();
    changed.rank_list[0]!.level_list[1]!.rank_addr_list[0]!.addr = "0000000000000000000000000000abcd";
    const diff = diffInventory(before, inventoryFromRankTable(writeRankTable(changed)).inventory!);
    expect(diff.unchanged).toBe(false);
    expect(diff.dies.changed).toEqual([{ id: "superpod0-rack0/d0", changes: [expect.objectContaining({ field: "netLevels" })] }]);
    expect(String(diff.dies.changed[0]!.changes[0]!.to)).toContain("0000000000000000000000000000abcd@plane0");
    expect(diffInventory(before, before).unchanged).toBe(true);
  });

  it("builds the same 2.0 table back from the inventory (the reverse of the import), also for build from inventory", () => {
    const text = writeRankTable(table());
    const inventory = inventoryFromRankTable(text).inventory!;
    expect(writeRankTable(a5TableFromInventory(inventory.servers))).toBe(text);
    // Atlas 950 servers read only "2.0": build from inventory gives 2.0 whatever 1.x version was asked for.
    const built = tableFromInventory(inventory, { version: "1.2", servers: ["superpod0-rack1"] });
    expect(writeRankTable(built)).toBe(writeRankTable({ ...a5TableFromInventory(inventory.servers.slice(1)) }));
    expect(inventoryFromRankTable(writeRankTable(built)).issues).toEqual([]);
  });
});
