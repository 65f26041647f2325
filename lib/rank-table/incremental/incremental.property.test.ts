/**
 * Exactness of the incremental validator: after every edit of a random sequence, on "2.0" tables (generated, the A5
 * reference examples, and both with planted duplicates) and on "1.0"/"1.2" tables (the seed's two, and a generated
 * one with backup partners), its report equals what validateRankTable gives for the same table, in both languages
 * and under a small cap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Edit } from "../../rank-table-workspace/edit";
import { generateA5Table } from "../generate-a5";
import { generateFromTemplate } from "../generate";
import { isJsonObject, type JsonObject, type JsonValue, type Lang } from "../model";
import { parseRankTable } from "../parse";
import { fixtureText, superPodTable, aiServerTable } from "../test-support/tables";
import { applyV1Edit, v1Edit, type V1Edit } from "../test-support/v1-edits";
import { validateRankTable } from "../validate";
import { IncrementalValidator } from "./index";

const runs = Number(process.env.FUZZ_RUNS ?? 150);
const SMALL_CAP = { total: 12, perCode: 3 };

const a5Fixture = (name: string) => parseRankTable(fixtureText(name)).value as JsonObject;

/** A "2.0" table whose rank 1 repeats rank 0's first EID and rank_id, and whose rank 2 has an IPv4 address. */
function withDuplicates(table: JsonObject): JsonObject {
  const copy = structuredClone(table);
  const ranks = copy.rank_list as JsonObject[];
  const addressesOf = (rank: JsonObject) => ((rank.level_list as JsonObject[])[0]!.rank_addr_list as JsonObject[]);
  addressesOf(ranks[1]!)[0]!.addr = addressesOf(ranks[0]!)[0]!.addr!;
  ranks[1]!.rank_id = 0;
  if (ranks[2]) addressesOf(ranks[2])[0] = { addr_type: "IPV4", addr: "10.0.0.1", ports: ["d2h"] };
  return copy;
}

const A5_TABLES: (() => JsonValue)[] = [
  () => generateA5Table({ racks: 2, npusPerRack: 4 }) as unknown as JsonValue,
  () => generateA5Table({ racks: 3, npusPerRack: 2, superPodId: "sp" }) as unknown as JsonValue,
  () => a5Fixture("a5-reference-4p.jsonc"),
  () => a5Fixture("a5-reference-eid.jsonc"),
  () => withDuplicates(generateA5Table({ racks: 2, npusPerRack: 3 }) as unknown as JsonObject),
];
/** A generated "1.2" table whose last server has an IPv6 device_ip (RT037 names it until an earlier one appears). */
function withIpv6(table: JsonObject): JsonObject {
  const servers = table.server_list as JsonObject[];
  const devices = servers[servers.length - 1]!.device as JsonObject[];
  devices[devices.length - 1]!.device_ip = "fd00::2";
  return table;
}

const V1_TABLES: (() => JsonValue)[] = [
  superPodTable,
  aiServerTable,
  () => generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, npusPerServer: 2 }) as unknown as JsonValue,
  () => withIpv6(generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, npusPerServer: 2 }) as unknown as JsonObject),
];

const numbers = ["0", "1", "2", "3", "5", "7", "64", "65", "80", "1023", "16000", "70000", "x", "01", ""];
const addrs = ["10.0.0.1", "10.0.0.2", "fd00::1", "000000000000000000100000dfdf0020", "000000000000000000100000DFDF0020", "00000000000000000000000000000001", "xx.xx.xx.xx", "bad"];

/** Changes one address field of a rank, sharing every other entry (as an edit in the JSON view of one rank would). */
interface LevelEdit {
  type: "level";
  rank: number;
  level: number;
  address: number;
  field: "addr" | "addr_type" | "net_layer" | "net_instance_id" | "ports" | "drop-address" | "copy-addr";
  value: string;
}

/**
 * Replaces `remove` entries of rank_list at `at` with new ones: a copy of another rank (duplicate ids and addresses),
 * a rank of a new AI Server with fresh ids, or a non-object entry (RT004); as adding or removing ranks, a whole AI
 * Server, or several of the editor's edits in one burst would.
 */
interface SpliceEdit {
  type: "splice";
  at: number;
  remove: number;
  insert: ("copy" | "fresh" | "junk")[];
}

type AnyEdit = Edit | LevelEdit | SpliceEdit | V1Edit | { type: "clone" };

function applySplice(table: JsonValue, edit: SpliceEdit): JsonValue {
  if (!isJsonObject(table) || !Array.isArray(table.rank_list)) return table;
  const ranks = table.rank_list.slice();
  const at = edit.at % (ranks.length + 1);
  const inserted = edit.insert.map((kind, i): JsonValue => {
    const source = ranks[(at + i * 3) % Math.max(ranks.length, 1)];
    if (kind === "junk" || !isJsonObject(source)) return kind === "junk" ? "x" : { rank_id: ranks.length + i };
    const copy = structuredClone(source);
    if (kind === "fresh") {
      copy.rank_id = ranks.length + i;
      const level = Array.isArray(copy.level_list) && isJsonObject(copy.level_list[0]) ? copy.level_list[0] : undefined;
      if (level) {
        level.net_instance_id = "rack-new";
        for (const address of Array.isArray(level.rank_addr_list) ? level.rank_addr_list : []) if (isJsonObject(address)) address.addr = `10.9.${at}.${i}`;
      }
    }
    return copy;
  });
  ranks.splice(at, edit.remove, ...inserted);
  return { ...table, rank_list: ranks };
}

function applyLevelEdit(table: JsonValue, edit: LevelEdit): JsonValue {
  if (!isJsonObject(table) || !Array.isArray(table.rank_list)) return table;
  const ranks = table.rank_list;
  const rank = ranks[edit.rank % Math.max(ranks.length, 1)];
  if (!isJsonObject(rank) || !Array.isArray(rank.level_list) || rank.level_list.length === 0) return table;
  const copy = structuredClone(rank);
  const levels = copy.level_list as JsonValue[];
  const level = levels[edit.level % levels.length];
  if (!isJsonObject(level)) return table;
  const addresses = Array.isArray(level.rank_addr_list) ? level.rank_addr_list : [];
  const at = edit.address % Math.max(addresses.length, 1);
  const address = addresses[at];
  if (edit.field === "net_layer") level.net_layer = edit.value === "x" ? "x" : Number(edit.value) % 3;
  else if (edit.field === "net_instance_id") level.net_instance_id = `rack${edit.value}`;
  else if (edit.field === "drop-address") addresses.splice(at, 1);
  else if (!isJsonObject(address)) return table;
  else if (edit.field === "addr") address.addr = edit.value;
  else if (edit.field === "addr_type") address.addr_type = edit.value;
  else if (edit.field === "ports") address.ports = [edit.value];
  else {
    // Another rank's address: a duplicate across ranks (RT124), the commonest mistake of a hand edit.
    const other = ranks[(edit.rank + 1 + Number(edit.value.length)) % ranks.length];
    const otherAddress = isJsonObject(other) && Array.isArray(other.level_list) && isJsonObject(other.level_list[0]) && Array.isArray(other.level_list[0].rank_addr_list) ? other.level_list[0].rank_addr_list[0] : undefined;
    if (!isJsonObject(otherAddress)) return table;
    address.addr = otherAddress.addr!;
  }
  const next = ranks.slice();
  next[edit.rank % ranks.length] = copy;
  return { ...table, rank_list: next };
}

const a5Edit: fc.Arbitrary<AnyEdit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant("setRank" as const), rank: fc.nat({ max: 12 }), field: fc.constantFrom("rank_id", "local_id", "device_id", "device_port", "host_port"), value: fc.option(fc.constantFrom(...numbers), { nil: undefined }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("level" as const),
      rank: fc.nat({ max: 12 }),
      level: fc.nat({ max: 2 }),
      address: fc.nat({ max: 4 }),
      field: fc.constantFrom("addr", "addr_type", "net_layer", "net_instance_id", "ports", "drop-address", "copy-addr"),
      value: fc.constantFrom(...addrs, "EID", "IPV4", "ipv4", "eid", "0", "1", "2", "x", "0/1", "d2h"),
    }) as fc.Arbitrary<LevelEdit>,
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("removeRank" as const), rank: fc.nat({ max: 12 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant("splice" as const),
      at: fc.nat({ max: 12 }),
      remove: fc.nat({ max: 4 }),
      insert: fc.array(fc.constantFrom("copy" as const, "fresh" as const, "junk" as const), { maxLength: 4 }),
    }),
  },
  // The whole table again, as a clone (the editor's undo, repairs, language switch): equal entries are not re-checked.
  { weight: 1, arbitrary: fc.constant({ type: "clone" as const }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("set" as const), path: fc.constant({}), field: fc.constantFrom("rank_count", "status"), value: fc.option(fc.constantFrom("1", "completed", "x"), { nil: undefined }) }) },
);

const v1EditOrClone: fc.Arbitrary<AnyEdit> = fc.oneof({ weight: 14, arbitrary: v1Edit }, { weight: 1, arbitrary: fc.constant({ type: "clone" as const }) });

function apply(table: JsonValue, edit: AnyEdit): JsonValue {
  if (edit.type === "clone") return structuredClone(table);
  if (edit.type === "splice") return applySplice(table, edit);
  return edit.type === "level" ? applyLevelEdit(table, edit) : applyV1Edit(table, edit);
}

/**
 * `steps`, for a validator that builds its "1.x" state after the first report (deferBuild, the editor's worker): how
 * many steps of the build run before each edit (none, part, or all of it), so edits meet a build not begun, half
 * done and done.
 */
function checkSequence(start: JsonValue, edits: AnyEdit[], lang: Lang, capped: boolean, steps?: number[]): { incremental: number; resized: number } {
  const options = capped ? { lang, limits: SMALL_CAP } : { lang };
  const validator = new IncrementalValidator({ deferBuild: steps !== undefined });
  let table = start;
  expect(validator.validate(table, options)).toEqual(validateRankTable(table, options));
  let incremental = 0;
  let resized = 0;
  for (const [at, edit] of edits.entries()) {
    for (let step = 0; step < (steps?.[at] ?? 0) && validator.buildSome(0); step++);
    // The table the build is for, validated again before the edit: the same report whatever the build has done.
    if (steps !== undefined && at % 3 === 1) expect(validator.validate(table, options)).toEqual(validateRankTable(table, options));
    table = apply(table, edit);
    const report = validator.validate(table, options);
    expect(report, JSON.stringify(edit)).toEqual(validateRankTable(table, options));
    if (validator.lastRun !== "incremental") continue;
    incremental++;
    if (["splice", "removeRank", "servers", "pods", "addServer", "removeServer", "moveServer", "addDevice", "removeDevice"].includes(edit.type)) resized++;
  }
  return { incremental, resized };
}

/**
 * Runs `numRuns` random sequences from `tables` and checks every report; the property must exercise the incremental
 * path, not only the full fallback, for edits that add or remove entries too.
 */
function assertSequences(tables: (() => JsonValue)[], edit: fc.Arbitrary<AnyEdit>, maxLength: number, numRuns: number, deferred = false): void {
  let incremental = 0;
  let resized = 0;
  const steps = fc.array(fc.constantFrom(0, 1, 2, 5, 20, 1000), { minLength: maxLength, maxLength });
  fc.assert(
    fc.property(fc.nat({ max: tables.length - 1 }), fc.array(edit, { minLength: 1, maxLength }), fc.constantFrom<Lang>("en", "zh"), fc.boolean(), steps, (which, edits, lang, capped, built) => {
      const counts = checkSequence(tables[which]!(), edits, lang, capped, deferred ? built : undefined);
      incremental += counts.incremental;
      resized += counts.resized;
    }),
    { numRuns },
  );
  expect(incremental).toBeGreaterThan(numRuns * 2);
  expect(resized).toBeGreaterThan(numRuns / 2);
}

describe("incremental validation equals full validation after every edit", () => {
  it('"2.0" tables: rank fields, addresses and levels, ranks added and removed, header edits', () => {
    assertSequences(A5_TABLES, a5Edit, 25, runs);
  });

  it('"1.0" and "1.2" tables: device, server, pod and header fields, devices, servers and pods added, removed, moved and copied', () => {
    assertSequences(V1_TABLES, v1EditOrClone, 15, Math.ceil(runs / 3));
  });

  it('"1.0" and "1.2" tables with the state built after the first report, in steps, edits arriving before, during and after the build', () => {
    assertSequences(V1_TABLES, v1EditOrClone, 15, Math.ceil(runs / 3), true);
  });
});
