/**
 * Fuzzing every parser that takes outside input (issue 13): the rank-table engine (parse, validate, every repair,
 * the canonical writer, the legacy conversion, hccn.conf), the device-info ConfigMap parser and the fault CSV
 * import, on generated text and values — broken JSON, deep nesting, huge and hostile strings, mutated real
 * inputs. None may throw anything but its own typed error (DeviceInfoError), and every report stays bounded.
 *
 * `npm test` runs FUZZ_RUNS (default 300) inputs per parser; `npm run fuzz` runs 250,000 per parser (a million in
 * all) and prints the count and time. A failure prints fast-check's seed and the shrunk input, so it replays.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFaultCsv } from "./faults/csv";
import { DeviceInfoError, parseDeviceInfo } from "./faults/device-info";
import { toCsv } from "./faults/timeline";
import {
  assignPorts,
  convertLegacyTable,
  generateFromHccn,
  generateFromTemplate,
  isJsonObject,
  pairBackups,
  parseHccnConf,
  parseRankTable,
  recomputeServerCount,
  renumberRanks,
  validateRankTable,
  writeRankTable,
  type JsonValue,
} from "./rank-table";
import { REPORT_LIMITS } from "./report-limits";

const runs = Number(process.env.FUZZ_RUNS ?? 300);
// Generous: a loaded CI machine took 16 ms per rank-table input; the default 300 runs take seconds.
const timeout = Math.max(120_000, runs * 50);
const counted: Record<string, { runs: number; ms: number }> = {};

/** Runs a property and records how many inputs it took and how long, for `npm run fuzz`'s summary. */
function check(name: string, property: fc.IProperty<[unknown]> | fc.IProperty<[string]>): void {
  const started = performance.now();
  fc.assert(property as fc.IProperty<[unknown]>, { numRuns: runs });
  counted[name] = { runs, ms: performance.now() - started };
  if (process.env.FUZZ_REPORT === "1") console.log(`fuzz ${name}: ${runs} inputs in ${(counted[name].ms / 1000).toFixed(1)} s`);
}

const seedTable = writeRankTable(generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, version: "1.2" }));
const seedCommented = readFileSync(new URL("./rank-table/fixtures/seed-super-pod.jsonc", import.meta.url), "utf8");
// HCCL's legacy "template 2" (no version), as the MindSpore generator writes it.
const seedLegacy = JSON.stringify({
  status: "completed",
  group_count: "1",
  group_list: [{ group_name: "g", device_count: "2", instance_count: "1", instance_list: [{ pod_name: "p0", server_id: "10.0.0.1", devices: [{ device_id: "0", device_ip: "192.168.0.6" }, { device_id: "1", device_ip: "192.168.0.7" }] }] }],
});
const seedDeviceInfo = readFileSync(new URL("./faults/fixtures/device-info-a3-sample.json", import.meta.url), "utf8");
const seedCsv = toCsv(
  ["id", "began_at", "ended_at", "server", "die", "kind", "code", "level", "message"],
  [["a:1", "2026-11-20T08:00:00Z", "", "sp0-node01", 3, "roce-link-down", "81078603", "NotHandleFault", "=cmd|' /C calc'!A0"]],
);

/** Text that hurts parsers: NUL, lone surrogates, BOMs, line separators, quotes, huge repeats. */
const hostileString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("\u0000", "\ud800", "\udc00x", "\ufeff", "\u2028", '"', "\\", "'=1+1", "\r", "\n\n", "0x", "-1", "1e309", "__proto__", "constructor"),
  fc.integer({ min: 1, max: 5000 }).map((n) => "a".repeat(n)),
);

/** Mutations of a real input: insert, delete or replace a slice with something hostile. */
function mutated(seed: string): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.nat(), fc.nat({ max: 20 }), hostileString), { minLength: 1, maxLength: 4 })
    .map((edits) => edits.reduce((text, [at, cut, insert]) => {
      const index = at % (text.length + 1);
      return text.slice(0, index) + insert + text.slice(index + cut);
    }, seed));
}

/** Deep nesting of arrays or objects, as text, sometimes unterminated. */
const deepText = fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.boolean(), fc.boolean()).map(([depth, objects, closed]) => {
  const open = objects ? '{"a":' : "[";
  const close = objects ? "}" : "]";
  return `{"version":"1.0","server_list":${open.repeat(depth)}0${closed ? close.repeat(depth) : ""}}`;
});

/** Arrays of the wrong type in the table's lists. */
const wrongArrays = fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom("0", "null", '""', "[]", "{}", "true", '"x"')).map(
  ([count, item]) => `{"version":"1.2","status":"completed","server_list":[${new Array(count).fill(item).join(",")}],"super_pod_list":[${new Array(count % 50).fill(item).join(",")}]}`,
);

const anyText = fc.oneof(
  { weight: 4, arbitrary: mutated(seedTable) },
  { weight: 1, arbitrary: mutated(seedLegacy) },
  { weight: 1, arbitrary: mutated(seedCommented) },
  { weight: 2, arbitrary: fc.json({ depthSize: "medium" }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
  { weight: 1, arbitrary: deepText },
  { weight: 1, arbitrary: wrongArrays },
);

/** assignPorts' own error: the port blocks of servers with thousands of devices do not fit below 65536. */
function portsOrNone(table: JsonValue): ReturnType<typeof assignPorts> | undefined {
  try {
    return assignPorts(table as Parameters<typeof assignPorts>[0], { basePort: 16666 });
  } catch (error) {
    if (error instanceof RangeError && /do not fit below/.test(error.message)) return undefined;
    throw error;
  }
}

function expectBoundedReport(report: ReturnType<typeof validateRankTable>): void {
  expect(report.issues.length).toBeLessThanOrEqual(REPORT_LIMITS.total);
  for (const issue of report.issues) expect(issue.message.length).toBeLessThan(2000);
}

describe("fuzzing the parsers (issue 13)", () => {
  it("rank-table engine: parse, validate, repair, write and convert never throw, and reports stay bounded", () => {
    check(
      "rank-table",
      fc.property(anyText, (text) => {
        const document = parseRankTable(text);
        expectBoundedReport(validateRankTable(document, { lang: text.length % 2 ? "zh" : "en" }));
        const value = document.value;
        if (value === undefined) return;
        expectBoundedReport(validateRankTable(value));
        convertLegacyTable(value);
        if (!isJsonObject(value)) return;
        for (const repaired of [renumberRanks(value), pairBackups(value), recomputeServerCount(value), portsOrNone(value)]) {
          if (repaired === undefined) continue;
          const written = writeRankTable(repaired.table);
          expect(parseRankTable(written).syntaxProblem).toBeUndefined();
        }
      }),
    );
  }, timeout);

  it("hccn.conf: parsing and generating never throw", () => {
    const conf = fc.array(fc.oneof(fc.constantFrom("address_0=10.0.0.1", "address_1 = fd00::1", "netmask_0=255.255.255.0", "address_x=1"), hostileString), { maxLength: 20 });
    check(
      "hccn",
      fc.property(fc.array(fc.tuple(hostileString, conf), { maxLength: 5 }), (files) => {
        const servers = files.map(([serverId, lines]) => ({ serverId, hccnConf: lines.join("\n") }));
        for (const server of servers) parseHccnConf(server.hccnConf);
        expectBoundedReport(validateRankTable(generateFromHccn(servers, { version: files.length % 2 ? "1.2" : "1.0" }) as unknown as JsonValue));
      }) as fc.IProperty<[unknown]>,
    );
  }, timeout);

  it("device-info: only DeviceInfoError, and warnings stay bounded", () => {
    const input = fc.oneof(
      { weight: 4, arbitrary: mutated(seedDeviceInfo) },
      { weight: 2, arbitrary: fc.json({ depthSize: "small" }) },
      { weight: 1, arbitrary: fc.anything() },
      { weight: 1, arbitrary: deepText },
    );
    check(
      "device-info",
      fc.property(input, (value) => {
        try {
          const snapshot = parseDeviceInfo(value);
          expect(snapshot.warnings.length).toBeLessThanOrEqual(REPORT_LIMITS.total);
        } catch (error) {
          if (!(error instanceof DeviceInfoError)) throw error;
        }
      }),
    );
  }, timeout);

  it("fault CSV import: never throws, every row keeps its line, problems stay bounded", () => {
    const csv = fc.oneof(
      { weight: 4, arbitrary: mutated(seedCsv) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
      { weight: 1, arbitrary: fc.array(fc.array(hostileString, { maxLength: 8 }), { maxLength: 10 }).map((rows) => toCsv(["began_at", "kind", "message"], rows)) },
    );
    check(
      "csv",
      fc.property(csv, (text) => {
        const parsed = parseFaultCsv(text, "c");
        expect(parsed.errors.length).toBeLessThanOrEqual(REPORT_LIMITS.total + 1);
        let previous = 1;
        for (const row of parsed.rows) {
          expect(row.line).toBeGreaterThan(previous);
          previous = row.line;
        }
      }),
    );
  }, timeout);
});
