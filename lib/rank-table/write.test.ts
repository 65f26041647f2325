import { describe, expect, it } from "vitest";
import type { JsonValue } from "./model";
import { parseRankTable } from "./parse";
import { aiServerTable, fixtureText } from "./test-support/tables";
import { writeRankTable } from "./write";

describe("writeRankTable", () => {
  it("writes the canonical form: key order, strings, unknown fields last, two spaces, final newline", () => {
    const table = parseRankTable(`{
      "server_list": [{"device": [{"rank_id": 0, "zz": null, "device_id": "0"}], "host_nic_ip": "reserve", "server_id": "1"}],
      "version": 1.0, "status": "completed", "server_count": 1
    }`).value!;
    expect(writeRankTable(table)).toBe(`{
  "status": "completed",
  "version": "1.0",
  "server_count": "1",
  "server_list": [
    {
      "server_id": "1",
      "device": [
        {
          "device_id": "0",
          "rank_id": "0",
          "zz": ""
        }
      ],
      "host_nic_ip": "reserve"
    }
  ]
}
`);
  });

  it("drops the seed's comments and is idempotent", () => {
    const once = writeRankTable(parseRankTable(fixtureText("seed-ai-server.jsonc")).value!);
    expect(once).not.toContain("//");
    expect(writeRankTable(parseRankTable(once).value!)).toBe(once);
    expect(parseRankTable(once).value).toEqual(aiServerTable());
  });

  it("keeps unknown integer-like keys after the known ones, in their order", () => {
    const table = { "7": "x", version: "1.0", status: "completed", extra: { "2": "b", "1": "a", z: [] } } as unknown as JsonValue;
    const text = writeRankTable(table);
    expect(text).toBe('{\n  "status": "completed",\n  "version": "1.0",\n  "7": "x",\n  "extra": {\n    "1": "a",\n    "2": "b",\n    "z": []\n  }\n}\n');
    expect(writeRankTable(parseRankTable(text).value!)).toBe(text);
  });

  it("writes __proto__ as an ordinary field", () => {
    const table = parseRankTable('{"__proto__": {"a": 1}, "status": "completed"}').value!;
    expect(writeRankTable(table)).toBe('{\n  "status": "completed",\n  "__proto__": {\n    "a": "1"\n  }\n}\n');
  });

  it("writes a field named like an Object method beside an integer-like key (found by npm run fuzz)", () => {
    const table = parseRankTable('{"0": {}, "toString": {}, "constructor": []}').value!;
    expect(writeRankTable(table)).toBe('{\n  "0": {},\n  "toString": {},\n  "constructor": []\n}\n');
  });
});
