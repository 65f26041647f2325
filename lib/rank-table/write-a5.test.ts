/** The canonical export of "2.0" tables: numbers stay JSON numbers, strings of digits in number fields become numbers. */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "./model";
import { parseRankTable } from "./parse";
import { edit } from "./test-support/tables";
import { generateA5Table } from "./generate-a5";
import { fixtureObject } from "./test-support/legacy-cases";
import { validateRankTable } from "./validate";
import { writeRankTable } from "./write";

const A5 = fixtureObject("a5-reference-4p.jsonc");

describe("writeRankTable on version 2.0", () => {
  it("keeps numbers as numbers, in the canonical key order, and validates without findings", () => {
    const text = writeRankTable(A5);
    const value = parseRankTable(text).value as { rank_count: unknown; rank_list: JsonObject[] };
    expect(value.rank_count).toBe(4);
    expect(Object.keys(value.rank_list[0]!)).toEqual(["rank_id", "local_id", "device_id", "device_port", "host_port", "level_list"]);
    expect(value.rank_list[3]).toMatchObject({ rank_id: 3, local_id: 1, device_port: 16669, level_list: [{ net_layer: 0, net_attr: "" }, { net_layer: 1 }] });
    expect(validateRankTable(text).issues).toEqual([]);
    expect(writeRankTable(parseRankTable(text).value!)).toBe(text);
  });

  it("repairs RT103 (a number written as a string) and RT003 in string fields, keeping unknown fields as they are", () => {
    const broken = edit(A5, { "/rank_list/0/rank_id": "0", "/rank_list/0/level_list/1/rank_addr_list/0/plane_id": 7, "/rank_list/0/custom": 1.5, "/version": 2 });
    expect(validateRankTable(broken).issues.map((issue) => issue.code)).toEqual(expect.arrayContaining(["RT103", "RT003", "RT002"]));
    const written = parseRankTable(writeRankTable(broken)).value!;
    const value = written as { version: unknown; rank_list: JsonObject[] };
    expect(value.version).toBe("2.0");
    expect(value.rank_list[0]).toMatchObject({ rank_id: 0, custom: 1.5, level_list: [{}, { rank_addr_list: [{ plane_id: "7" }, {}] }] });
    expect(validateRankTable(written).issues.map((issue) => issue.code)).toEqual(["RT002"]);
  });
});

describe("generateA5Table", () => {
  it("builds a SuperPoD of racks that validates without findings, one AI Server per rack", () => {
    const table = generateA5Table({ racks: 3, npusPerRack: 64 });
    const report = validateRankTable(writeRankTable(table));
    expect(report.issues).toEqual([]);
    expect(report).toMatchObject({ version: "2.0", layout: "2.0", mode: "super-pod", stats: { superPods: 1, servers: 3, devices: 192 } });
    expect(table.rank_list[64]).toMatchObject({ rank_id: 64, local_id: 0, device_id: 0 });
  });

  it("refuses racks of more NPUs than local_id allows", () => {
    expect(() => generateA5Table({ npusPerRack: 66 })).toThrow(RangeError);
  });
});
