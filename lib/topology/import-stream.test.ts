import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateA5Table, generateFromTemplate, isJsonObject, parseRankTable, validateRankTable, writeRankTable, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { inventoryFromRankTable, type Inventory } from "./import";
import { checkStreamedTable, inventoryPartsFromRankTable, streamedInventoryParts } from "./import-stream";

const fixture = (name: string) => readFileSync(new URL(`../rank-table/fixtures/${name}`, import.meta.url), "utf8");
/** A fixture's value as plain JSON (the fixtures have comments, which are read whole). */
const plain = (name: string) => JSON.stringify(parseRankTable(fixture(name)).value, null, 2);
const a3 = (superPods: number, servers: number) => generateFromTemplate({ superPods, serversPerSuperPod: servers }) as unknown as JsonObject;
const a2 = (servers: number) => generateFromTemplate({ version: "1.0", serversPerSuperPod: servers, npusPerServer: 8, diesPerNpu: 1 }) as unknown as JsonObject;
/** Small pieces and parts, so that keys, elements and batches all cross them. */
const small = { chars: 97, servers: 3, links: 50 };

/** A table with findings of every level: root, servers, devices, super pods, and duplicates across servers. */
function broken(): string {
  const table = a3(2, 3) as { server_list: JsonObject[]; super_pod_list: JsonObject[] } & JsonObject;
  table.vendor_note = "kept and reported";
  table.server_count = 6;
  const devices = table.server_list[1]!.device as JsonObject[];
  devices[0]!.device_ip = (table.server_list[0]!.device as JsonObject[])[0]!.device_ip!;
  devices[1]!.rank_id = 3;
  devices[2]!.colour = "blue";
  table.server_list[2]!.rack = "r1";
  (table.server_list as JsonValue[]).splice(4, 0, "not a server");
  (table.super_pod_list[1]!.server_list as JsonObject[])[0]!.slot = 2;
  return writeRankTable(table);
}

/** More findings than a report lists (lib/report-limits.ts), after findings of the root. */
function flooded(): string {
  const table = a3(4, 16) as { server_list: { device: JsonObject[] }[] } & JsonObject;
  table.extra_a = 1;
  table.extra_b = 2;
  for (const server of table.server_list) for (const device of server.device) Object.assign(device, { rank_id: 1, device_id: 7, note: "x" });
  return writeRankTable(table);
}

const tables: [string, string][] = [
  ["a generated A3 table (1.2)", writeRankTable(a3(3, 4))],
  ["a generated A2 table (1.0)", writeRankTable(a2(5))],
  ["the seed's super pod table", plain("seed-super-pod.jsonc")],
  ["the seed's AI Server table", plain("seed-ai-server.jsonc")],
  ["a table with findings at every level", broken()],
  ["a table with more findings than are listed", flooded()],
  ["super_pod_list before server_list, on one line", JSON.stringify((({ super_pod_list, ...rest }) => ({ super_pod_list, ...rest }))(a3(2, 2)))],
  ["an empty server_list", JSON.stringify({ version: "1.0", server_count: "0", server_list: [], status: "completed" })],
];

describe("a 1.x table checked as it streams", () => {
  it.each(tables)("finds in %s exactly what the whole-table validation finds, positions included", (_, text) => {
    const checked = checkStreamedTable(text, small);
    const whole = validateRankTable(text);
    expect(checked).toBeDefined();
    expect(checked!.issues).toEqual(whole.issues);
    expect(checked!.plan === null).toBe(whole.issues.some((issue) => issue.severity === "error"));
  });

  it("finds what the whole-table validation finds in tables edited at random, at any piece size", () => {
    const seed = a3(2, 3) as { server_list: JsonValue[] } & JsonObject;
    const value = fc.oneof(fc.constantFrom<JsonValue>(null, 7, "", "0", "10.0.0.1", "x", [], {}, ["a"], { device_id: "1" }, true, "16", "1.2", "1.0"), fc.string({ maxLength: 6 }));
    const key = fc.constantFrom("server_id", "host_ip", "device", "device_id", "device_ip", "rank_id", "super_device_id", "backup_device_ip", "server_count", "version", "super_pod_list", "server_list", "extra");
    // An edit: a path of indexes into the table's objects and arrays (taken modulo their size), a key and a value.
    const edit = fc.tuple(fc.array(fc.nat(), { minLength: 0, maxLength: 4 }), key, value);
    let streamed = 0;
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 400 }), (edits, chars) => {
        const table = structuredClone(seed) as JsonValue;
        for (const [path, field, shared] of edits) {
          const replacement = structuredClone(shared);
          let target: JsonValue = table;
          for (const step of path) {
            const children: JsonValue[] = Array.isArray(target) ? target : isJsonObject(target) ? Object.values(target) : [];
            if (children.length === 0) break;
            const next = children[step % children.length]!;
            if (!Array.isArray(next) && !isJsonObject(next)) break;
            target = next;
          }
          if (Array.isArray(target)) target.splice(path.length % (target.length + 1), 0, replacement);
          else if (isJsonObject(target)) target[field] = replacement;
        }
        const text = JSON.stringify(table, null, edits.length % 2 ? 2 : undefined);
        const checked = checkStreamedTable(text, { ...small, chars });
        if (checked === undefined) return;
        streamed++;
        expect(checked.issues).toEqual(validateRankTable(text).issues);
      }),
      { numRuns: 150 },
    );
    // Most edits leave a table that is read streamed (the others, "2.0" or a number as version, are read whole).
    expect(streamed).toBeGreaterThan(100);
  });

  it("is checked against a report that leaves findings out", () => {
    // So the streamed servers' findings, capped on their own, were listed and counted as the whole run lists them.
    expect(validateRankTable(flooded()).omitted?.count).toBeGreaterThan(1000);
  });

  it.each([
    ["comments", fixture("seed-super-pod.jsonc")],
    ["a syntax error", writeRankTable(a3(1, 2)).replace('"rank_id": "3"', '"rank_id" "3"')],
    ["a 2.0 table", writeRankTable(generateA5Table({ racks: 2, npusPerRack: 8 }) as unknown as JsonValue)],
    ["the legacy layout", fixture("legacy-tensorflow-8p.json")],
    ["a number as version", JSON.stringify({ ...a3(1, 2), version: 2 })],
    ["two server_lists", writeRankTable(a2(2)).replace('"server_list": [', '"server_list": [], "server_list": [')],
    ["no object", "[1, 2]"],
  ])("leaves a table with %s to the whole-table read, which answers as before", (_, text) => {
    expect(checkStreamedTable(text, small)).toBeUndefined();
    const whole = inventoryFromRankTable(text);
    const { parts, issues } = inventoryPartsFromRankTable(text);
    expect(issues).toEqual(whole.issues);
    expect(parts && [...parts]).toEqual(whole.inventory && [whole.inventory]);
  });
});

/** The parts put together as one inventory. */
function joined(parts: Iterable<Inventory>): { inventory: Inventory; sizes: { servers: number; links: number }[] } {
  const inventory: Inventory = { mode: "ai-server", superPodIds: [], servers: [], links: [] };
  const sizes: { servers: number; links: number }[] = [];
  for (const part of parts) {
    inventory.mode = part.mode;
    inventory.superPodIds.push(...part.superPodIds);
    inventory.servers.push(...part.servers);
    inventory.links.push(...part.links);
    sizes.push({ servers: part.servers.length, links: part.links.length });
  }
  return { inventory, sizes };
}

describe("a 1.x table's inventory in parts", () => {
  it.each([
    ["A3 super pods (1.2)", writeRankTable(a3(4, 5)), "super-pod"],
    ["A2 servers (1.0)", writeRankTable(a2(7)), "ai-server"],
    ["the seed's super pod table", plain("seed-super-pod.jsonc"), "super-pod"],
  ])("of %s is the whole-table import's, in the same order, a bounded batch at a time", (_, text, mode) => {
    const whole = inventoryFromRankTable(text).inventory!;
    const { plan } = checkStreamedTable(text, small)!;
    const { inventory, sizes } = joined(streamedInventoryParts(text, plan!, small));
    expect(inventory).toEqual(whole);
    expect(inventory.mode).toBe(mode);
    // Super pods first, then servers, then links; none over its size.
    expect(sizes[0]).toEqual({ servers: 0, links: 0 });
    const firstLinks = sizes.findIndex((size) => size.links > 0);
    expect(sizes.slice(firstLinks).every((size) => size.servers === 0)).toBe(true);
    expect(sizes.every((size) => size.servers <= small.servers && size.links <= small.links)).toBe(true);
    expect(sizes.length).toBeGreaterThan(3);
  });

  it("is refused with the whole-table findings when the table has errors", () => {
    const text = broken();
    const { parts, issues } = inventoryPartsFromRankTable(text);
    expect(parts).toBeNull();
    expect(issues).toEqual(inventoryFromRankTable(text).issues);
  });
});
