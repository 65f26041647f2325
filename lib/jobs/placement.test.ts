import { describe, expect, it } from "vitest";
import { completedA3Table } from "./fixtures/rings-config";
import { placeRanks, summarizePlacement, type InventoryDie } from "./placement";
import { rankEntries } from "./rank-entries";

const dies: InventoryDie[] = [0, 1].flatMap((slot) =>
  [0, 1, 2, 3].map((deviceId) => ({ serverId: `sp0-node0${slot}`, hostIp: `172.16.0.${100 + slot}`, deviceId, deviceIp: `192.168.${slot + 1}.${6 + deviceId}` })),
);

describe("placeRanks", () => {
  it("matches by server id, by host IP (the operator's server_id is the node IP), and by device IP", () => {
    const table = completedA3Table([
      { serverId: "sp0-node00", devices: [{ id: 0, ip: "192.168.1.6" }, { id: 1, ip: "192.168.1.7" }] },
      { serverId: "172.16.0.101", devices: [{ id: 2, ip: "192.168.2.8" }] },
      { serverId: "node-unknown", devices: [{ id: 3, ip: "192.168.2.9" }] },
    ]);
    const placed = placeRanks(rankEntries(JSON.stringify(table))!, dies);
    expect(placed.map((p) => [p.rank, p.dieId, p.match])).toEqual([
      [0, "sp0-node00/d0", "server-and-device"],
      [1, "sp0-node00/d1", "server-and-device"],
      [2, "sp0-node01/d2", "server-and-device"],
      [3, "sp0-node01/d3", "device-ip"],
    ]);
  });

  it("lists what does not match with its reason instead of dropping it", () => {
    const table = completedA3Table([
      { serverId: "nowhere", devices: [{ id: 0, ip: "10.9.9.9" }] },
      { serverId: "sp0-node00", devices: [{ id: 7, ip: "10.9.9.8" }] },
    ]);
    table.server_list[1]!.device.push({ device_id: "1", device_ip: "192.168.1.7", super_device_id: "1", rank_id: "x" });
    const placed = placeRanks(rankEntries(JSON.stringify(table))!, dies);
    expect(placed.map((p) => [p.rank, p.dieId, p.unmatched])).toEqual([
      [0, null, "unknown-server"],
      [1, null, "unknown-device"],
      [null, null, "no-rank"],
    ]);
    expect(summarizePlacement(placed)).toEqual({ ranks: 3, placed: 0, unmatched: 3, servers: 0 });
  });

  it("flags a device IP that differs from the inventory's, and ignores an IP two dies share", () => {
    const twins = [...dies, { serverId: "sp0-node02", hostIp: null, deviceId: 0, deviceIp: "192.168.1.6" }];
    const table = completedA3Table([
      { serverId: "sp0-node00", devices: [{ id: 0, ip: "10.1.1.1" }] },
      { serverId: "elsewhere", devices: [{ id: 0, ip: "192.168.1.6" }] },
    ]);
    const placed = placeRanks(rankEntries(JSON.stringify(table))!, twins);
    expect(placed[0]).toMatchObject({ dieId: "sp0-node00/d0", deviceIpDiffers: true });
    expect(placed[1]).toMatchObject({ dieId: null, unmatched: "unknown-server" });
    expect(summarizePlacement(placeRanks(rankEntries(JSON.stringify(completedA3Table([{ serverId: "sp0-node01", devices: [{ id: 1, ip: "x" }] }])))!, dies))).toEqual({
      ranks: 1,
      placed: 1,
      unmatched: 0,
      servers: 1,
    });
  });

  it("reads no ranks from a table without a server list", () => {
    expect(rankEntries('{"status":"initializing"}')).toBeNull();
  });
});
