import { describe, expect, it } from "vitest";
import { generateA5Table } from "./generate-a5";
import { generateFromTemplate } from "./generate";
import type { JsonValue } from "./model";
import { parseRankTable } from "./parse";
import { StreamingTableParser, StreamSyntaxError } from "./stream-parse";
import { writeRankTable } from "./write";
import { writeRankTableParts } from "./write-parts";

/** Parses `text` pushed in pieces of `size` characters. */
function streamed(text: string, size: number) {
  const parser = new StreamingTableParser();
  for (let at = 0; at < text.length; at += size) parser.push(text.slice(at, at + size));
  return parser.finish();
}

const a5 = generateA5Table({ racks: 2, npusPerRack: 8 }) as unknown as JsonValue;
const legacy = generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, basePort: 16000 }) as unknown as JsonValue;

describe("StreamingTableParser", () => {
  it.each([1, 7, 64, 100_000])("gives parseRankTable's value for a 2.0 and a 1.x table in pieces of %i", (size) => {
    for (const table of [a5, legacy]) {
      const text = writeRankTable(table);
      expect(streamed(text, size)).toEqual({ value: parseRankTable(text).value, commentCount: 0 });
    }
  });

  it("keeps comments' content out and counts them, strings with brackets, escapes and commas intact", () => {
    const text = '\ufeff{ // head\n "a": "x]}\\",[", "list": [ /* one */ {"b": "[,]"}, 2 /* two */, "\\\\" ], "empty": [ /* none */ ], "n": {"c": [1, [2]]} }';
    const result = streamed(text, 3);
    expect(result).toEqual({ value: { a: 'x]}",[', list: [{ b: "[,]" }, 2, "\\"], empty: [], n: { c: [1, [2]] } }, commentCount: 4 });
  });

  it("keeps a __proto__ member as a plain own key", () => {
    const { value } = streamed('{"__proto__": [1, 2], "x": 1}', 5);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(["__proto__", "x"]);
  });

  it.each([
    ['{"list": [1, , 2]}', "unexpected-character"],
    ['{"list": [1, 2,]}', "unexpected-character"],
    ['{"list": [1, 2}', "unexpected-character"],
    ['{"list": [1, 2]', "unexpected-end"],
    ['{"a": "open', "unterminated-string"],
    ['{"list": [{"a": 1 "b": 2}]}', "unexpected-character"],
    [`{"list": [${"[".repeat(70)}${"]".repeat(70)}]}`, "too-deep"],
  ])("says where %s stops being JSON", (text, reason) => {
    let error: unknown;
    try {
      streamed(text, 4);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StreamSyntaxError);
    expect((error as StreamSyntaxError).reason).toBe(reason);
  });
});

describe("StreamingTableParser's batches (elements after the first parsed many at a time)", () => {
  const text = writeRankTable(generateA5Table({ racks: 1, npusPerRack: 64 }) as unknown as JsonValue);
  // The text that ends a rank_list element in the canonical text, which the batches look for.
  const separator = "\n    },";
  const tenth = text.indexOf('"rank_id": 10,');

  it("reads past a comment holding the separator, counting it", () => {
    const commented = `${text.slice(0, tenth)}/* a note${separator} */ ${text.slice(tenth)}`;
    expect(streamed(commented, 100_000)).toEqual({ value: parseRankTable(text).value, commentCount: 1 });
  });

  it.each([
    ["a missing comma in a later element", text.slice(0, tenth) + text.slice(tenth).replace('"local_id": 10,', '"local_id": 10'), "unexpected-character"],
    ["a later element nested too deep", `${text.slice(0, tenth)}"deep": ${"[".repeat(62)}${"]".repeat(62)}, ${text.slice(tenth)}`, "too-deep"],
  ])("finds %s", (_, broken, reason) => {
    expect(() => streamed(broken, 100_000)).toThrow(StreamSyntaxError);
    try {
      streamed(broken, 100_000);
    } catch (error) {
      expect((error as StreamSyntaxError).reason).toBe(reason);
    }
  });

  it("gives the same value when the separator appears inside elements too", () => {
    // One-line elements after the first: `},` closes inner objects as well.
    const table = { version: "1.0", list: [{ a: { b: 1 } }, { a: { b: 2 } }, { a: { b: 3 } }] };
    const pretty = JSON.stringify(table, null, 2);
    expect(streamed(pretty, 100_000).value).toEqual(table);
  });
});

describe("writeRankTableParts", () => {
  it.each([1, 3, 5000])("joins to writeRankTable's text (batches of %i)", (batch) => {
    for (const table of [a5, legacy, { server_list: [], version: "1.0" } as JsonValue, [1, 2] as JsonValue]) {
      const parts = writeRankTableParts(table, batch);
      expect(parts.join("")).toBe(writeRankTable(table));
    }
  });

  it("cuts a large array into several pieces", () => {
    expect(writeRankTableParts(a5, 4).length).toBeGreaterThan(3);
  });
});
