/** Properties checked on generated input with fast-check. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { setMember } from "./json-scanner";
import type { JsonObject, JsonValue, RuleCode } from "./model";
import { parseRankTable } from "./parse";
import { assignPorts, pairBackups, recomputeServerCount, renumberRanks, type RepairResult } from "./repair";
import { validateRankTable } from "./validate";
import { writeRankTable } from "./write";

/** Scalars drawn from pools that hit the rules: valid and broken numbers, addresses, ports, shapes. */
const scalar = (pool: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: fc.constantFrom<JsonValue>(7, true, null, "", {}, []) },
  );
const ids = ["0", "1", "2", "3", "4", "5", "15", "16", "-1", "x", "01"];
const addresses = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "fd00::1", "fd00::0:1", "10.0.0.256", "nope"];
const ports = ["16666", "16667", "16668", "80", "0", "70000", "p"];

const device = fc.record(
  {
    device_id: scalar(ids),
    super_device_id: scalar(ids),
    device_ip: scalar(addresses),
    device_port: scalar(ports),
    backup_device_ip: scalar(addresses),
    backup_device_port: scalar(ports),
    host_port: scalar(ports),
    rank_id: scalar(ids),
    host_nic_ip: fc.constant("reserve"),
  },
  { requiredKeys: [] },
);
const server = fc.record(
  {
    server_id: scalar(["node_0", "node_1", "node_2", "n".repeat(65)]),
    host_ip: scalar(addresses),
    device: fc.oneof({ weight: 6, arbitrary: fc.array(device, { maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant<JsonValue>("x") }),
  },
  { requiredKeys: [] },
);
const superPod = fc.record(
  { super_pod_id: scalar(["0", "1"]), server_list: fc.array(fc.record({ server_id: scalar(["node_0", "node_1", "node_2", "node_9"]) }), { maxLength: 3 }) },
  { requiredKeys: [] },
);
/** Tables that look like rank tables, with every kind of mistake. */
const rankTable = fc.record(
  {
    status: scalar(["completed", "initializing", "done"]),
    version: scalar(["1.0", "1.2", "2.0"]),
    server_count: scalar(["0", "1", "2", "3"]),
    server_list: fc.array(server, { maxLength: 4 }),
    super_pod_list: fc.array(superPod, { maxLength: 3 }),
  },
  { requiredKeys: ["server_list"] },
).chain((table) =>
  // Sometimes add an own "__proto__" key, as JSON.parse does for '{"__proto__": …}'.
  fc.boolean().map((withProto) => {
    if (withProto) setMember(table as JsonObject, "__proto__", { polluted: "yes" });
    return table as JsonValue;
  }),
);

/** JSON values whose scalars are all strings, i.e. what the writer produces. */
const stringJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const codesOf = (table: JsonValue) => new Set(validateRankTable(table).issues.map((issue) => issue.code));
const anyJson = fc.oneof(rankTable, fc.jsonValue() as fc.Arbitrary<JsonValue>);

describe("the validator never throws", () => {
  it("on arbitrary JSON values and rank-table-like objects", () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const report = validateRankTable(value);
        expect(report.valid).toBe(report.issues.every((issue) => issue.severity !== "error"));
        validateRankTable(JSON.stringify(value), { lang: "zh" });
      }),
      { numRuns: 400 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("on arbitrary text, reporting RT000 with a position when it is not JSON", () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json().map((json) => json.slice(0, Math.floor(json.length / 2))), fc.json().map((json) => `/* c */${json}// end`));
    fc.assert(
      fc.property(text, (input) => {
        const report = validateRankTable(input);
        for (const issue of report.issues) {
          expect(issue.line).toBeGreaterThanOrEqual(1);
          expect(issue.column).toBeGreaterThanOrEqual(1);
        }
        if (parseRankTable(input).syntaxProblem) expect(report.issues.map((issue) => issue.code)).toContain("RT000");
      }),
      { numRuns: 400 },
    );
  });
});

describe("the writer", () => {
  it("is idempotent (fmt of fmt changes nothing)", () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const once = writeRankTable(value);
        expect(writeRankTable(parseRankTable(once).value!)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it("round-trips: parse(write(t)) equals t for tables of strings", () => {
    fc.assert(
      fc.property(stringJson, (value) => {
        expect(parseRankTable(writeRankTable(value)).value).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves no RT001 or RT003 in its output", () => {
    fc.assert(
      fc.property(rankTable, (value) => {
        const codes = codesOf(parseRankTable(writeRankTable(value)).value!);
        expect(codes.has("RT001") || codes.has("RT003")).toBe(false);
      }),
    );
  });
});

describe("every repair removes the findings it is for", () => {
  const repairs: [string, (table: JsonValue) => RepairResult, RuleCode[]][] = [
    ["renumberRanks", renumberRanks, ["RT044", "RT045", "RT046", "RT047", "RT048", "RT049"]],
    ["pairBackups", pairBackups, ["RT050", "RT051", "RT052", "RT053", "RT054"]],
    ["assignPorts", (table) => assignPorts(table, { basePort: 16666 }), ["RT040", "RT041", "RT042", "RT043"]],
    ["recomputeServerCount", recomputeServerCount, ["RT015", "RT016"]],
  ];

  it.each(repairs)("%s", (_name, repair, codes) => {
    fc.assert(
      fc.property(rankTable, (table) => {
        const before = JSON.stringify(table);
        const { table: repaired } = repair(table);
        expect(JSON.stringify(table)).toBe(before);
        const remaining = codesOf(repaired);
        expect(codes.filter((code) => remaining.has(code))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("assignPorts works from any base port that fits", () => {
    fc.assert(
      fc.property(rankTable, fc.integer({ min: 1, max: 65535 - 3 * 6 + 1 }), (table, basePort) => {
        const remaining = codesOf(assignPorts(table, { basePort }).table);
        expect(["RT040", "RT041", "RT042", "RT043"].filter((code) => remaining.has(code as RuleCode))).toEqual([]);
      }),
    );
  });
});
