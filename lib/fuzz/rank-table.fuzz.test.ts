import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assignPorts,
  convertLegacyTable,
  generateFromTemplate,
  isJsonObject,
  pairBackups,
  parseRankTable,
  recomputeServerCount,
  renumberRanks,
  validateRankTable,
  writeRankTable,
  type JsonValue,
} from "../rank-table";
import { check, deepText, expectBoundedReport, mutated, timeout } from "./shared";

const seedTable = writeRankTable(generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, version: "1.2" }));
const seedCommented = readFileSync(new URL("../rank-table/fixtures/seed-super-pod.jsonc", import.meta.url), "utf8");
// HCCL's legacy "template 2" (no version), as the MindSpore generator writes it.
const seedLegacy = JSON.stringify({
  status: "completed",
  group_count: "1",
  group_list: [{ group_name: "g", device_count: "2", instance_count: "1", instance_list: [{ pod_name: "p0", server_id: "10.0.0.1", devices: [{ device_id: "0", device_ip: "192.168.0.6" }, { device_id: "1", device_ip: "192.168.0.7" }] }] }],
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

describe("fuzzing the rank-table engine (issue 13)", () => {
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
});
