import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import type { ClusterSpec } from "@/lib/inventory/model";
import { writeRankTable, type RankTable } from "@/lib/rank-table";
import { rankTableFromInventory } from "./export";
import { diffInventory, inventoryFromRankTable, type Inventory } from "./import";

/** A demo cluster written as a rank table, as "build from inventory" does. */
const demoTable = (spec: ClusterSpec = demoA3Cluster(2, 4)): RankTable => rankTableFromInventory(spec);

const asInventory = (spec: ReturnType<typeof demoA3Cluster>): Inventory => ({ mode: spec.mode, superPodIds: spec.superPodIds, servers: spec.servers, links: spec.links });

describe("inventory from a rank table", () => {
  it("reads the demo's own table back into the same inventory: nothing to change", () => {
    const { inventory, issues } = inventoryFromRankTable(writeRankTable(demoTable()));
    expect(issues.filter((i) => i.severity === "error")).toEqual([]);
    const current = asInventory(demoA3Cluster(2, 4));
    expect(inventory!.servers).toEqual(current.servers);
    expect(inventory!.links).toHaveLength(current.links.length);
    const diff = diffInventory(current, inventory!);
    expect(diff.unchanged).toBe(true);
    expect(diff.conflicts).toEqual([]);
  });

  it("builds from the inventory a table that the engine finds valid, ranks in inventory order", () => {
    const text = writeRankTable(rankTableFromInventory(demoA3Cluster()));
    const document = JSON.parse(text);
    expect(document.server_list[50].device[0]).toMatchObject({ device_id: "0", device_ip: "192.168.51.6", rank_id: "800" });
    expect(inventoryFromRankTable(text).issues.filter((i) => i.severity !== "info")).toEqual([]);
  });

  it("refuses a table with errors and says why", () => {
    const table = demoTable();
    table.server_list[1]!.device[0]!.device_ip = table.server_list[0]!.device[0]!.device_ip!;
    const { inventory, issues } = inventoryFromRankTable(writeRankTable(table));
    expect(inventory).toBeNull();
    expect(issues.some((i) => i.severity === "error")).toBe(true);
  });

  it("lists added, changed and removed servers and dies, and the conflicts before anything is written", () => {
    const table = demoTable();
    // sp0-node03 leaves; a new server joins pod 1; sp1-node00 moves to pod 0; two dies swap their device IPs.
    const removed = table.server_list.splice(3, 1)[0]!;
    table.super_pod_list![0]!.server_list = table.super_pod_list![0]!.server_list.filter((s) => s.server_id !== removed.server_id);
    const added = structuredClone(table.server_list[table.server_list.length - 1]!);
    added.server_id = "sp1-node99";
    added.host_ip = "172.16.1.199";
    added.device.forEach((d, i) => {
      d.device_ip = `192.168.99.${6 + i}`;
      d.backup_device_ip = `192.168.99.${6 + (i ^ 1)}`;
      d.super_device_id = String(64 + i);
    });
    table.server_list.push(added);
    table.super_pod_list![1]!.server_list.push({ server_id: "sp1-node99" });
    table.super_pod_list![1]!.server_list = table.super_pod_list![1]!.server_list.filter((s) => s.server_id !== "sp1-node01");
    table.super_pod_list![0]!.server_list.push({ server_id: "sp1-node01" });
    table.server_list.find((s) => s.server_id === "sp1-node01")!.device.forEach((d, i) => (d.super_device_id = String(48 + i)));
    const s0 = table.server_list[0]!;
    [s0.device[4]!.device_ip, s0.device[6]!.device_ip] = [s0.device[6]!.device_ip!, s0.device[4]!.device_ip!];
    [s0.device[5]!.backup_device_ip, s0.device[7]!.backup_device_ip] = [s0.device[7]!.backup_device_ip!, s0.device[5]!.backup_device_ip!];
    // server_list keeps each super pod's servers together (rule RT065), in super_pod_list order.
    const order = table.super_pod_list!.flatMap((pod) => pod.server_list.map((s) => s.server_id));
    table.server_list.sort((a, b) => order.indexOf(a.server_id) - order.indexOf(b.server_id));
    table.server_list.forEach((s, i) => s.device.forEach((d, j) => (d.rank_id = String(i * 16 + j))));
    table.server_count = String(table.server_list.length);
    const { inventory, issues } = inventoryFromRankTable(writeRankTable(table));
    expect(issues.filter((i) => i.severity === "error")).toEqual([]);
    const diff = diffInventory(asInventory(demoA3Cluster(2, 4)), inventory!);
    expect(diff.servers.added).toEqual(["sp1-node99"]);
    expect(diff.servers.removed).toEqual(["sp0-node03"]);
    expect(diff.servers.changed).toEqual([{ serverId: "sp1-node01", changes: [{ field: "superPodId", from: "1", to: "0" }] }]);
    expect(diff.dies.added).toHaveLength(16);
    expect(diff.dies.removed).toHaveLength(16);
    expect(diff.dies.changed.filter((d) => d.id.startsWith("sp0-")).map((d) => d.id)).toEqual(["sp0-node00/d4", "sp0-node00/d5", "sp0-node00/d6", "sp0-node00/d7"]);
    expect(diff.dies.changed.filter((d) => d.id.startsWith("sp1-node01/"))).toHaveLength(16);
    expect(diff.dies.changed[0]!.changes).toEqual([{ field: "deviceIp", from: "192.168.1.10", to: "192.168.1.12" }]);
    expect(diff.conflicts).toEqual([
      { kind: "server-moved-pod", serverId: "sp1-node01", from: "1", to: "0" },
      { kind: "device-ip-moved", deviceIp: "192.168.1.12", from: "sp0-node00/d6", to: "sp0-node00/d4" },
      { kind: "device-ip-moved", deviceIp: "192.168.1.10", from: "sp0-node00/d4", to: "sp0-node00/d6" },
    ]);
    expect(diff.unchanged).toBe(false);
  });

  it("reads AI Server mode tables (1.0) as A2 servers with an HCCS mesh, and flags a mode change", () => {
    const a2 = demoA2Cluster();
    const { inventory, issues } = inventoryFromRankTable(writeRankTable(demoTable(a2)));
    expect(issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(inventory!.mode).toBe("ai-server");
    expect(inventory!.servers).toEqual(a2.servers);
    expect(inventory!.links).toHaveLength(a2.links.length);
    expect(diffInventory(asInventory(demoA3Cluster(2, 4)), inventory!).conflicts[0]).toEqual({ kind: "mode-changed", from: "super-pod", to: "ai-server" });
  });

  it("diffs against an empty cluster as all added, without conflicts", () => {
    const a2 = demoA2Cluster();
    const diff = diffInventory({ mode: "ai-server", superPodIds: [], servers: [], links: [] }, { mode: a2.mode, superPodIds: [], servers: a2.servers, links: a2.links });
    expect(diff.servers.added).toHaveLength(4);
    expect(diff.dies.added).toHaveLength(32);
    expect(diff.conflicts).toEqual([]);
  });
});
