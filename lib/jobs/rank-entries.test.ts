import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isJsonObject, parseRankTable } from "@/lib/rank-table";
import { inventoryFromA5Table } from "@/lib/topology/import-a5";
import { placeRanks } from "./placement";
import { rankEntries } from "./rank-entries";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../rank-table/fixtures", name), "utf8");

describe("rankEntries of a 2.0 table", () => {
  it("reads each rank on its net_layer 0 server, so every rank lands on the die the inventory import made of it", () => {
    for (const name of ["a5-reference-4p.jsonc", "a5-reference-eid.jsonc"]) {
      const text = fixture(name);
      const entries = rankEntries(text)!;
      const root = parseRankTable(text).value;
      if (!isJsonObject(root) || !Array.isArray(root.rank_list)) throw new Error(`${name} is not a 2.0 table`);
      expect(entries).toHaveLength(root.rank_list.length);
      const dies = inventoryFromA5Table(root).servers.flatMap((server) => server.npus.flatMap((npu) => npu.dies.map((die) => ({ serverId: server.serverId, hostIp: null, deviceId: die.deviceId, deviceIp: null }))));
      const placed = placeRanks(entries, dies);
      expect(placed.every((rank) => rank.dieId !== null && rank.match === "server-and-device"), name).toBe(true);
      expect(new Set(placed.map((rank) => rank.dieId)).size).toBe(entries.length);
    }
  });

  it("still refuses what has neither a server_list nor a rank_list", () => {
    expect(rankEntries('{"version": "2.0"}')).toBeNull();
    expect(rankEntries("not json")).toBeNull();
  });
});
