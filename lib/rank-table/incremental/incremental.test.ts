/** The incremental validator, one rule family at a time: each edit's report names what changed, and equals a full run. */
import { describe, expect, it } from "vitest";
import { applyEdit, type Edit } from "../../rank-table-workspace/edit";
import { generateA5Table } from "../generate-a5";
import type { JsonObject, JsonValue, ValidationReport } from "../model";
import { fixtureObject } from "../test-support/legacy-cases";
import { validateRankTable } from "../validate";
import { IncrementalValidator, type ValidationRun } from "./index";

/** 2 racks × 4 NPUs: ranks 0–3 in rack 0, 4–7 in rack 1, one SuperPoD. */
const start = () => generateA5Table({ racks: 2, npusPerRack: 4 }) as unknown as JsonObject;

/** A validator over an editable table; each step checks the report against a full validation. */
function session(table: JsonValue = start()) {
  const validator = new IncrementalValidator();
  let current = table;
  let report = validator.validate(current);
  /** `run`: how the validator must have worked (null: either way). */
  const step = (next: JsonValue, run: ValidationRun | null = "incremental"): ValidationReport => {
    current = next;
    report = validator.validate(current);
    expect(report).toEqual(validateRankTable(current));
    if (run !== null) expect(validator.lastRun).toBe(run);
    return report;
  };
  return {
    get lastRun() {
      return validator.lastRun;
    },
    get table() {
      return current;
    },
    get report() {
      return report;
    },
    step,
    edit: (edit: Edit, run?: ValidationRun) => step(applyEdit(current, edit), run),
    /** Rewrites one rank entry (as the JSON view of one rank would), sharing the others. */
    rank: (index: number, change: (rank: JsonObject) => void, run?: ValidationRun) => {
      const root = current as JsonObject;
      const ranks = (root.rank_list as JsonValue[]).slice();
      const copy = structuredClone(ranks[index]) as JsonObject;
      change(copy);
      ranks[index] = copy;
      return step({ ...root, rank_list: ranks }, run);
    },
  };
}

const codes = (report: ValidationReport) => report.issues.map((issue) => `${issue.code} ${issue.path}`);
const address = (rank: JsonObject, level = 0, at = 0) => ((rank.level_list as JsonObject[])[level]!.rank_addr_list as JsonObject[])[at]!;
const rankOf = (table: JsonValue, index: number) => ((table as JsonObject).rank_list as JsonObject[])[index]!;

describe("IncrementalValidator on a \"2.0\" table", () => {
  it("a duplicate EID (RT124) appears on the later rank and goes when the address is put back", () => {
    const s = session();
    const original = address(rankOf(s.table, 5)).addr!;
    const taken = address(rankOf(s.table, 2)).addr!;
    expect(codes(s.rank(5, (rank) => (address(rank).addr = taken)))).toEqual(["RT124 /rank_list/5/level_list/0/rank_addr_list/0/addr"]);
    expect(s.report.issues[0]!.message).toContain("/rank_list/2/level_list/0/rank_addr_list/0");
    // The first holder takes another address: the duplicate is gone, and nothing names rank 2 any more.
    expect(codes(s.rank(2, (rank) => (address(rank).addr = "0000000000000000000000000000ffff")))).toEqual([]);
    expect(codes(s.rank(5, (rank) => (address(rank).addr = original)))).toEqual([]);
  });

  it('the "other" of every holder follows the first holder when it changes', () => {
    const s = session();
    const shared = address(rankOf(s.table, 6)).addr!;
    s.rank(3, (rank) => (address(rank).addr = shared));
    s.rank(7, (rank) => (address(rank).addr = shared));
    expect(codes(s.report)).toEqual(["RT124 /rank_list/6/level_list/0/rank_addr_list/0/addr", "RT124 /rank_list/7/level_list/0/rank_addr_list/0/addr"]);
    expect(s.report.issues.every((issue) => issue.message.includes("/rank_list/3/"))).toBe(true);
    s.rank(3, (rank) => (address(rank).addr = "0000000000000000000000000000fffe"));
    expect(codes(s.report)).toEqual(["RT124 /rank_list/7/level_list/0/rank_addr_list/0/addr"]);
    expect(s.report.issues[0]!.message).toContain("/rank_list/6/");
  });

  it("host addresses: a repeat on one net_layer is a warning across ranks and nothing within a rank", () => {
    const s = session();
    const ipv4 = { addr_type: "IPV4", addr: "10.0.0.1", ports: ["d2h"] };
    s.rank(1, (rank) => ((rank.level_list as JsonObject[])[0]!.rank_addr_list = [ipv4, { ...ipv4, ports: ["d2h1"] }]));
    expect(codes(s.report)).toEqual([]);
    const report = s.rank(4, (rank) => ((rank.level_list as JsonObject[])[0]!.rank_addr_list = [{ ...ipv4 }]));
    expect(report.issues.map((issue) => [issue.code, issue.severity])).toEqual([["RT124", "warning"]]);
    expect(report.valid).toBe(true);
  });

  it("rank_id: a duplicate (RT106) names the first holder, out of range is RT107, a gap in a server RT108", () => {
    const s = session();
    expect(codes(s.edit({ type: "setRank", rank: 6, field: "rank_id", value: "1" }))).toEqual([
      "RT106 /rank_list/6/rank_id",
      "RT108 /rank_list/4",
    ]);
    // Rank 1 leaves the id: rank 6 holds it alone, and rank 1's new id duplicates rank 2's.
    expect(codes(s.edit({ type: "setRank", rank: 1, field: "rank_id", value: "2" }))).toEqual([
      "RT106 /rank_list/2/rank_id",
      "RT108 /rank_list/0",
      "RT108 /rank_list/4",
    ]);
    expect(codes(s.edit({ type: "setRank", rank: 2, field: "rank_id", value: "9" }))).toEqual([
      "RT107 /rank_list/2/rank_id",
      "RT108 /rank_list/0",
      "RT108 /rank_list/4",
    ]);
    s.edit({ type: "setRank", rank: 1, field: "rank_id", value: "1" });
    s.edit({ type: "setRank", rank: 2, field: "rank_id", value: "2" });
    expect(codes(s.edit({ type: "setRank", rank: 6, field: "rank_id", value: "6" }))).toEqual([]);
  });

  it("local_id twice in one AI Server is RT111; the same local_id in another server is fine", () => {
    const s = session();
    expect(codes(s.edit({ type: "setRank", rank: 5, field: "local_id", value: "0" }))).toEqual(["RT111 /rank_list/5/local_id"]);
    expect(codes(s.edit({ type: "setRank", rank: 5, field: "local_id", value: "1" }))).toEqual([]);
  });

  it("moving a rank to another AI Server or SuperPoD updates the counts and the servers it left and joined", () => {
    const s = session();
    expect(s.report.stats).toEqual({ superPods: 1, servers: 2, devices: 8 });
    const level = (rank: JsonObject, at: number) => (rank.level_list as JsonObject[])[at]!;
    const report = s.rank(1, (rank) => {
      level(rank, 0).net_instance_id = "superpod0-rack1";
      level(rank, 1).net_instance_id = "superpod1";
    });
    expect(report.stats).toEqual({ superPods: 2, servers: 2, devices: 8 });
    // Rack 1 now starts at rank 1: its local_id 1 repeats rank 5's, and its ranks 1, 4–7 have a gap.
    expect(codes(report)).toEqual(["RT108 /rank_list/0", "RT111 /rank_list/5/local_id", "RT108 /rank_list/1"]);
    const alone = s.rank(1, (rank) => (level(rank, 0).net_instance_id = "rack-of-one"));
    expect(alone.stats.servers).toBe(3);
  });

  it("local rules of the edited rank: ports and read findings", () => {
    const s = session();
    expect(codes(s.edit({ type: "setRank", rank: 3, field: "host_port", value: "80" }))).toEqual(["RT113 /rank_list/3/host_port"]);
    expect(codes(s.edit({ type: "setRank", rank: 3, field: "device_port", value: "x" }))).toEqual(["RT103 /rank_list/3/device_port", "RT113 /rank_list/3/host_port"]);
    expect(codes(s.edit({ type: "setRank", rank: 3, field: "host_port", value: undefined }))).toEqual(["RT103 /rank_list/3/device_port"]);
  });

  it("header edits re-read only the header; changing the version is validated in full", () => {
    const s = session();
    expect(codes(s.edit({ type: "set", path: {}, field: "rank_count", value: "3" }))).toEqual(["RT103 /rank_count", "RT101 /rank_count"]);
    expect(codes(s.edit({ type: "set", path: {}, field: "status", value: "initializing" }))).toEqual(["RT011 /status", "RT103 /rank_count", "RT101 /rank_count"]);
    s.edit({ type: "set", path: {}, field: "rank_count", value: undefined });
    expect(codes(s.report)).toEqual(["RT011 /status", "RT100 "]);
    s.edit({ type: "set", path: {}, field: "version", value: "1.2" }, "full");
  });

  it("ranks removed and inserted: counts, RT107 bounds and the pointers of the ranks after them follow", () => {
    const s = session();
    const list = (change: (ranks: JsonValue[]) => void) => {
      const ranks = ((s.table as JsonObject).rank_list as JsonValue[]).slice();
      change(ranks);
      return { ...(s.table as JsonObject), rank_list: ranks };
    };
    // Rank 7 (rank_id 7) is now outside 0…6; rank_count 8 no longer counts the list.
    s.edit({ type: "setRank", rank: 5, field: "host_port", value: "80" });
    expect(codes(s.edit({ type: "removeRank", rank: 2 }))).toEqual(["RT113 /rank_list/4/host_port", "RT107 /rank_list/6/rank_id", "RT108 /rank_list/0"]);
    // Rank 0 again, at the front: every later pointer moves by one, and rank_id 0 is now held twice.
    const first = ((s.table as JsonObject).rank_list as JsonValue[])[0]!;
    const again = codes(s.step(list((ranks) => ranks.unshift(structuredClone(first)))));
    // Eight ranks again: rank_id 7 is back in range.
    expect(again.slice(0, 5)).toEqual(["RT101 /rank_count", "RT113 /rank_list/5/host_port", "RT106 /rank_list/1/rank_id", "RT111 /rank_list/1/local_id", "RT108 /rank_list/0"]);
    expect(again.slice(5)).toEqual([0, 1].flatMap((level) => [0, 1].map((address) => `RT124 /rank_list/1/level_list/${level}/rank_addr_list/${address}/addr`)));
    expect(s.report.stats.devices).toBe(8);
    // A block of ranks (an AI Server) removed, then a non-object entry put in their place.
    s.step(list((ranks) => ranks.splice(4, 4)));
    s.step(list((ranks) => ranks.splice(1, 0, "x")));
    s.step(list((ranks) => ranks.splice(1, 1)));
  });

  it("a SuperPoD added at the end and removed again: counts, stats and a report equal to a full run", () => {
    const s = session(generateA5Table({ racks: 8, npusPerRack: 4 }) as unknown as JsonObject);
    const pod = (generateA5Table({ racks: 2, npusPerRack: 4, superPodId: "superpod1", superPodIndex: 1 }).rank_list as unknown as JsonObject[]).map((rank) => ({ ...rank, rank_id: (rank.rank_id as number) + 32 }));
    const resize = (change: (ranks: JsonValue[]) => void, count: number) => {
      const ranks = ((s.table as JsonObject).rank_list as JsonValue[]).slice();
      change(ranks);
      return s.step({ ...(s.table as JsonObject), rank_count: count, rank_list: ranks });
    };
    const added = resize((ranks) => ranks.push(...pod), 40);
    expect(added.stats).toEqual({ superPods: 2, servers: 10, devices: 40 });
    expect(codes(added)).toEqual([]);
    // Without rank_count following, RT101; with a rank of the first pod gone too, RT107 for the last ids.
    expect(codes(resize((ranks) => ranks.splice(3, 1), 40))).toEqual(["RT101 /rank_count", "RT107 /rank_list/38/rank_id"]);
    expect(resize((ranks) => ranks.splice(31), 31).stats).toEqual({ superPods: 1, servers: 8, devices: 31 });
  });

  it("ranks inserted again and again at one place use up the room between two order keys, and a full run numbers them afresh", () => {
    const s = session();
    const runs: ValidationRun[] = [];
    for (let n = 0; n < 24; n++) {
      const ranks = ((s.table as JsonObject).rank_list as JsonValue[]).slice();
      ranks.splice(1, 0, { ...(ranks[0] as JsonObject), rank_id: 8 + n });
      s.step({ ...(s.table as JsonObject), rank_list: ranks }, null);
      runs.push(s.lastRun);
    }
    expect(runs).toContain("full");
    expect(runs.filter((run) => run === "incremental").length).toBeGreaterThan(12);
  });

  it("the cap lists the same findings and counts the rest", () => {
    const validator = new IncrementalValidator();
    const limits = { total: 3, perCode: 2 };
    let table: JsonValue = start();
    validator.validate(table, { limits });
    for (let rank = 0; rank < 6; rank++) table = applyEdit(table, { type: "setRank", rank, field: "host_port", value: "80" });
    const report = validator.validate(table, { limits });
    expect(report).toEqual(validateRankTable(table, { limits }));
    expect(report.omitted).toEqual({ count: 4, byCode: { RT113: 4 } });
    expect(validator.lastRun).toBe("incremental");
  });

  it("the table sent again whole (a clone) re-checks only the entries that differ", () => {
    const s = session();
    s.edit({ type: "setRank", rank: 2, field: "local_id", value: "3" });
    const clone = structuredClone(s.table) as JsonObject;
    (clone.rank_list as JsonObject[])[2]!.local_id = 2;
    expect(codes(s.edit({ type: "replace", table: clone }))).toEqual([]);
    expect(codes(s.edit({ type: "replace", table: structuredClone(s.table) }))).toEqual([]);
  });

  it("a rank given more addresses than any had is re-filed by a full run", () => {
    const s = session();
    const many = Array.from({ length: 9 }, (_, i) => ({ addr_type: "EID", addr: `${"0".repeat(30)}f${i}`, ports: [`0/${i}`] }));
    expect(codes(s.rank(3, (rank) => ((rank.level_list as JsonObject[])[1]!.rank_addr_list = many), "full"))).toEqual([]);
    // Two ranks with the same nine addresses: one RT124 per address on the later rank.
    expect(codes(s.rank(6, (rank) => ((rank.level_list as JsonObject[])[1]!.rank_addr_list = structuredClone(many)), "incremental"))).toHaveLength(9);
  });

  it("the same table again is not validated again; another layout is validated in full", () => {
    const validator = new IncrementalValidator();
    const table = start();
    validator.validate(table);
    validator.validate(table);
    expect(validator.lastRun).toBe("unchanged");
    const s = session(fixtureObject("legacy-mindspore-8p.json"));
    s.edit({ type: "set", path: {}, field: "status", value: "initializing" }, "full");
  });
});
