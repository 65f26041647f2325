/** The legacy template: conversion to "1.0" on the real fixtures and, as properties, on generated tables of both flavours. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertLegacyRepair, convertLegacyTable } from "./legacy";
import { compareServerIds } from "./legacy-view";
import type { JsonObject, JsonValue, RankTable } from "./model";
import { fixtureObject } from "./test-support/legacy-cases";
import { validateRankTable } from "./validate";
import { writeRankTable } from "./write";

interface LegacyDevice {
  serverId: string;
  deviceId: number;
  ip: string;
  /** The rank HCCL gives the device. */
  rank: number;
}

/** Warnings a converted table may keep: no host_ip for a server id that is not an address, ranks against device order. */
const ACCEPTED_AFTER_CONVERSION = new Set(["RT024", "RT048"]);

function convertedDevices(table: RankTable): LegacyDevice[] {
  return table.server_list.flatMap((server) =>
    server.device.map((device) => ({ serverId: server.server_id, deviceId: Number(device.device_id), ip: device.device_ip!, rank: Number(device.rank_id) })),
  );
}

const byKey = (devices: LegacyDevice[]) => [...devices].sort((a, b) => compareServerIds(a.serverId, b.serverId) || a.deviceId - b.deviceId);

/** Servers (distinct ids, some IPv4) with distinct device ids and addresses unique over the table. */
const servers = fc.uniqueArray(fc.constantFrom("node_0", "node_1", "node_10", "node_2", "10.0.0.1", "10.0.0.2", "a", "B"), { minLength: 1, maxLength: 4 }).chain((ids) =>
  fc.tuple(...ids.map((serverId, serverIndex) =>
    fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 8 }).map((deviceIds) =>
      ({ serverId, devices: deviceIds.map((deviceId) => ({ deviceId, ip: `192.168.${serverIndex}.${deviceId + 1}` })) }),
    ),
  )),
);

/** TensorFlow flavour: one pod per server, devices in any order; HCCL ranks servers by server_id, then device_id. */
const tensorflowTable = servers.map((list) => {
  const expected: LegacyDevice[] = [];
  let rank = 0;
  for (const server of [...list].sort((a, b) => compareServerIds(a.serverId, b.serverId))) {
    for (const device of [...server.devices].sort((a, b) => a.deviceId - b.deviceId)) expected.push({ serverId: server.serverId, ...device, rank: rank++ });
  }
  const deviceCount = list.reduce((sum, server) => sum + server.devices.length, 0);
  const table: JsonObject = {
    status: "completed",
    group_count: "1",
    group_list: [{
      group_name: "worker",
      device_count: String(deviceCount),
      instance_count: String(list.length),
      instance_list: list.map((server, index) => ({
        pod_name: `pod-${index}`,
        server_id: server.serverId,
        devices: server.devices.map((device) => ({ device_id: String(device.deviceId), device_ip: device.ip })),
      })),
    }],
  };
  return { table, expected };
});

/** MindSpore flavour: one instance per device, each server a block of ranks (blocks and ranks within them in any order). */
const mindsporeTable = servers.chain((list) =>
  fc.tuple(fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }), ...list.map((server) => fc.shuffledSubarray(server.devices, { minLength: server.devices.length, maxLength: server.devices.length }))).map(([blockOrder, ...rankOrders]) => {
    const rankOf = new Map<string, number>();
    let next = 0;
    for (const server of blockOrder) {
      for (const device of rankOrders[list.indexOf(server)]!) rankOf.set(`${server.serverId}/${device.deviceId}`, next++);
    }
    const expected = list.flatMap((server) => server.devices.map((device) => ({ serverId: server.serverId, ...device, rank: rankOf.get(`${server.serverId}/${device.deviceId}`)! })));
    const table: JsonObject = {
      board_id: "0x0000",
      chip_info: "910",
      deploy_mode: "lab",
      group_count: "1",
      para_plane_nic_location: "device",
      para_plane_nic_name: ["eth0"],
      para_plane_nic_num: "1",
      status: "completed",
      group_list: [{
        group_name: "",
        device_num: String(expected.length),
        server_num: String(list.length),
        instance_count: String(expected.length),
        instance_list: expected.map((device) => ({ rank_id: String(device.rank), server_id: device.serverId, devices: [{ device_id: String(device.deviceId), device_ip: device.ip }] })),
      }],
    };
    return { table, expected };
  }),
);

describe("legacy → 1.0 conversion", () => {
  it.each([
    ["legacy-tensorflow-8p.json", "legacy-tensorflow"],
    ["legacy-mindspore-8p.json", "legacy-mindspore"],
    ["legacy-reference-template2.jsonc", "legacy-tensorflow"],
  ])("%s: only RT005 (and comments) before, a clean 1.0 table after", (name, layout) => {
    const legacy = fixtureObject(name);
    const report = validateRankTable(legacy);
    expect(report).toMatchObject({ valid: true, layout, version: null });
    expect(report.issues.map((issue) => issue.code)).toEqual(["RT005"]);
    const conversion = convertLegacyTable(legacy);
    if (!conversion.ok) throw new Error(conversion.reason.en);
    const after = validateRankTable(writeRankTable(conversion.table));
    expect(after.valid).toBe(true);
    expect(after.issues.filter((issue) => !ACCEPTED_AFTER_CONVERSION.has(issue.code))).toEqual([]);
    expect(after.stats.devices).toBe(report.stats.devices);
  });

  it.each([
    ["TensorFlow", tensorflowTable],
    ["MindSpore", mindsporeTable],
  ] as const)("%s flavour: keeps every device, address and rank, and the result validates clean", (_flavour, tables) => {
    fc.assert(
      fc.property(tables, ({ table, expected }) => {
        expect(validateRankTable(table).issues.map((issue) => issue.code)).toEqual(["RT005"]);
        const conversion = convertLegacyTable(table);
        if (!conversion.ok) throw new Error(conversion.reason.en);
        expect(byKey(convertedDevices(conversion.table))).toEqual(byKey(expected));
        const after = validateRankTable(writeRankTable(conversion.table));
        expect(after.valid).toBe(true);
        expect(after.issues.filter((issue) => !ACCEPTED_AFTER_CONVERSION.has(issue.code))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("falls back to ranks in device order when the MindSpore ranks are unusable", () => {
    const legacy = fixtureObject("legacy-mindspore-8p.json");
    const instances = (legacy.group_list as JsonObject[])[0]!.instance_list as JsonObject[];
    instances[1]!.rank_id = "0";
    const conversion = convertLegacyTable(legacy as JsonValue);
    if (!conversion.ok) throw new Error(conversion.reason.en);
    expect(conversion.table.server_list[0]!.device.map((device) => device.rank_id)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
    expect(conversion.changes).toContainEqual({ path: "/server_list/0/device/1/rank_id", before: "0", after: "1" });
  });

  it("never throws on legacy tables with every kind of mistake", () => {
    const scalar = fc.oneof(fc.constantFrom<JsonValue>("0", "1", "8", "x", "", "xxx.xxx.xxx.xxx", "10.0.0.1", "node_0"), fc.constantFrom<JsonValue>(7, null, [], {}));
    const device = fc.record({ device_id: scalar, device_ip: scalar, device_port: scalar }, { requiredKeys: [] });
    const instance = fc.record({ pod_name: scalar, server_id: scalar, rank_id: scalar, devices: fc.oneof(fc.array(device, { maxLength: 4 }), scalar) }, { requiredKeys: [] });
    const group = fc.record({ instance_count: scalar, device_count: scalar, device_num: scalar, server_num: scalar, instance_list: fc.oneof(fc.array(instance, { maxLength: 4 }), scalar) }, { requiredKeys: [] });
    const table = fc.record({ status: scalar, deploy_mode: scalar, group_count: scalar, group_list: fc.oneof(fc.array(group, { maxLength: 3 }), scalar) }, { requiredKeys: ["group_count"] });
    fc.assert(
      fc.property(table, (value) => {
        const report = validateRankTable(value as JsonValue);
        expect(report.issues.map((issue) => issue.code)).toContain("RT005");
        const conversion = convertLegacyTable(value as JsonValue);
        if (conversion.ok) expect(() => writeRankTable(conversion.table)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe("convertLegacyRepair (the editor's repair)", () => {
  it("returns the 1.0 table and its changes, or throws the reason in the user's language", () => {
    const { table, changes } = convertLegacyRepair(fixtureObject("legacy-mindspore-8p.json"), "en");
    expect(validateRankTable(table)).toMatchObject({ valid: true, version: "1.0", issues: [] });
    expect(changes[0]).toEqual({ path: "/version", before: undefined, after: "1.0" });
    expect(() => convertLegacyRepair(fixtureObject("a5-reference-4p.jsonc"), "zh")).toThrow("不是旧版");
  });
});
