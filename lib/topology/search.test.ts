import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import type { IndexedDie, IndexedServer, TopologyIndex } from "./inventory-index";
import { largeA3Cluster } from "./large-cluster";
import type { SearchField, SearchHit, SearchResult } from "./model";
import { SEARCH_LIMIT, searchTopology } from "./search";
import { indexOf } from "./test-support";

/**
 * The search as it was before it had an index (a scan of every server and die, lower-casing each value): the oracle
 * the indexed search must agree with, hit for hit and in the same order.
 */
function scanSearch(index: TopologyIndex, query: string, field: SearchField = "any", limit = SEARCH_LIMIT): SearchResult {
  const serverHit = (server: IndexedServer, f: SearchField, value: string): SearchHit => ({ kind: "server", id: server.id, label: server.id, field: f, value, superPodId: server.pod?.id ?? null, serverId: server.id });
  const dieHit = (die: IndexedDie, f: SearchField, value: string): SearchHit => ({ kind: "die", id: die.id, label: `${die.server.id} · die ${die.spec.deviceId}`, field: f, value, superPodId: die.server.pod?.id ?? null, serverId: die.server.id });
  const q = query.trim().toLowerCase();
  if (!q) return { hits: [], total: 0 };
  const exact: SearchHit[] = [];
  const partial: SearchHit[] = [];
  const wants = (f: SearchField) => field === "any" || field === f;
  const isNumber = /^\d+$/.test(q);
  for (const server of index.servers) {
    if (wants("serverId")) {
      const id = server.id.toLowerCase();
      if (id === q) exact.push(serverHit(server, "serverId", server.id));
      else if (id.includes(q)) partial.push(serverHit(server, "serverId", server.id));
    }
    if (wants("hostIp") && server.spec.hostIp) {
      const ip = server.spec.hostIp.toLowerCase();
      if (ip === q) exact.push(serverHit(server, "hostIp", server.spec.hostIp));
      else if (ip.startsWith(q) && !isNumber) partial.push(serverHit(server, "hostIp", server.spec.hostIp));
    }
    for (const die of server.dies) {
      if (wants("deviceIp") && die.spec.deviceIp) {
        const ip = die.spec.deviceIp.toLowerCase();
        if (ip === q) exact.push(dieHit(die, "deviceIp", die.spec.deviceIp));
        else if (ip.startsWith(q) && !isNumber) partial.push(dieHit(die, "deviceIp", die.spec.deviceIp));
      }
      if (isNumber && wants("superDeviceId") && die.spec.superDeviceId !== null && String(die.spec.superDeviceId) === q) exact.push(dieHit(die, "superDeviceId", q));
    }
  }
  if (isNumber && wants("rank")) {
    const die = index.dieByRank[Number(q)];
    if (die) exact.unshift(dieHit(die, "rank", q));
  }
  const all = [...exact, ...partial];
  return { hits: all.slice(0, limit), total: all.length };
}

const clusters = [indexOf(demoA3Cluster()), indexOf(demoA2Cluster()), indexOf(largeA3Cluster(4, 16))];
const demo = clusters[0]!;
const large = indexOf(largeA3Cluster(32, 32));
const fields: SearchField[] = ["any", "serverId", "hostIp", "deviceIp", "superDeviceId", "rank"];

/** Queries worth asking: values of the cluster, their prefixes and middles, in any case, and noise. */
function queries(index: TopologyIndex): fc.Arbitrary<string> {
  const values = index.servers.flatMap((server) => [
    server.id,
    server.spec.hostIp ?? "",
    ...server.dies.flatMap((die) => [die.spec.deviceIp ?? "", String(die.spec.superDeviceId ?? ""), String(die.rank)]),
  ]).filter(Boolean);
  const cut = fc.tuple(fc.constantFrom(...values), fc.nat(), fc.nat()).map(([value, a, b]) => value.slice(Math.min(a, b) % value.length, 1 + (Math.max(a, b) % value.length)));
  return fc.oneof(fc.constantFrom(...values), cut, cut.map((text) => text.toUpperCase()), fc.string({ maxLength: 4 }));
}

describe("searchTopology (indexed)", () => {
  it("answers exactly as a scan of every server and die would, hits in the same order and the same total", () => {
    for (const index of clusters) {
      fc.assert(
        fc.property(queries(index), fc.constantFrom(...fields), fc.constantFrom(1, 5, SEARCH_LIMIT), (query, field, limit) => {
          expect(searchTopology(index, query, field, limit)).toEqual(scanSearch(index, query, field, limit));
        }),
        { numRuns: 400 },
      );
    }
  });

  it("finds every die of a large cluster by its device IP, its rank and (within its pod) its super device id", () => {
    const index = clusters[2]!;
    for (const die of index.dieByRank) {
      expect(searchTopology(index, die.spec.deviceIp!, "deviceIp").hits.map((hit) => hit.id)).toEqual([die.id]);
      expect(searchTopology(index, String(die.rank), "rank").hits[0]!.id).toBe(die.id);
      expect(searchTopology(index, String(die.spec.superDeviceId), "superDeviceId", 100).hits.map((hit) => hit.id)).toContain(die.id);
    }
  });

  it("counts a prefix's matches beyond the hits it returns", () => {
    const index = clusters[2]!;
    const result = searchTopology(index, "10.1.", "deviceIp");
    expect(result.total).toBe(16 * 16);
    expect(result.hits).toHaveLength(SEARCH_LIMIT);
    expect(result.hits[0]!.id).toBe(index.pods[1]!.servers[0]!.dies[0]!.id);
  });
});

describe("searchTopology (known answers)", () => {
  it("finds a die by device IP, a server by host IP or id, dies by super device id and by rank", () => {
    expect(searchTopology(demo, "192.168.50.9").hits).toEqual([
      { kind: "die", id: "sp1-node01/d3", label: "sp1-node01 · die 3", field: "deviceIp", value: "192.168.50.9", superPodId: "1", serverId: "sp1-node01" },
    ]);
    expect(searchTopology(demo, "172.16.1.100").hits.map((h) => [h.kind, h.id])).toEqual([["server", "sp1-node00"]]);
    expect(searchTopology(demo, "sp1-node4").total).toBe(8);
    expect(searchTopology(demo, "5", "superDeviceId").hits.map((h) => h.id)).toEqual(["sp0-node00/d5", "sp1-node00/d5"]);
    expect(searchTopology(demo, "800", "rank").hits.map((h) => h.id)).toEqual(["sp1-node02/d0"]);
    expect(searchTopology(demo, "  ").hits).toEqual([]);
    expect(searchTopology(large, "10.31.31.21").hits.map((h) => h.id)).toEqual(["p31-s031/d15"]);
  });
});
