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

describe("StreamingTableParser's element sinks", () => {
  /** Parses `text` in pieces of `size`, handing the elements of the members `keys` names to a list per key. */
  function sunk(text: string, size: number, keys: (key: string) => boolean) {
    const handed: Record<string, JsonValue[]> = {};
    const asked: string[] = [];
    const parser = new StreamingTableParser((key) => {
      asked.push(key);
      if (!keys(key)) return undefined;
      const list: JsonValue[] = (handed[key] ??= []);
      return (element) => void list.push(element);
    });
    for (let at = 0; at < text.length; at += size) parser.push(text.slice(at, at + size));
    return { ...parser.finish(), handed, asked };
  }

  it.each([1, 5, 64, 100_000])("hands a member's elements on in order, as JSON.parse reads them, in pieces of %i", (size) => {
    const text = writeRankTable(legacy);
    const whole = JSON.parse(text) as Record<string, JsonValue[]>;
    const { value, handed, asked } = sunk(text, size, (key) => key === "server_list");
    expect(asked).toEqual(["server_list", "super_pod_list"]);
    expect(handed.server_list).toEqual(whole.server_list);
    // The value keeps every other member as it was, and the handed-on array as that many holes.
    const { server_list: list, ...rest } = value as Record<string, JsonValue[]>;
    expect(list).toHaveLength(whole.server_list!.length);
    expect(Object.keys(list!)).toEqual([]);
    const { server_list: _, ...wholeRest } = whole;
    expect(rest).toEqual(wholeRest);
    expect(Object.keys(value as object)).toEqual(Object.keys(whole));
  });

  it("hands on the elements after the first in batches too (a canonical 64-rank table)", () => {
    const text = writeRankTable(generateA5Table({ racks: 1, npusPerRack: 64 }) as unknown as JsonValue);
    const { handed } = sunk(text, 100_000, (key) => key === "rank_list");
    expect(handed.rank_list).toEqual((JSON.parse(text) as { rank_list: JsonValue[] }).rank_list);
  });

  it("names a member by its key whatever its escapes and pieces, and only top-level members' arrays", () => {
    const text = '{"a\\u0062c\\"": [1, {"inner": [2]}], "n": {"deep": [3]}, "s": "[4]", "x\\\\": [[5]], "e": []}';
    for (const size of [1, 2, 3, 7, 1000]) {
      const { value, handed, asked } = sunk(text, size, () => true);
      expect(asked).toEqual(['abc"', "x\\", "e"]);
      expect(handed).toEqual({ 'abc"': [1, { inner: [2] }], "x\\": [[5]], e: [] });
      expect(value).toEqual({ 'abc"': new Array(2), n: { deep: [3] }, s: "[4]", "x\\": new Array(1), e: [] });
    }
  });

  it("keeps a member's elements in the value when the sink declines them", () => {
    const { value, handed } = sunk('{"list": [1, 2], "list": [3]}', 4, () => false);
    expect(handed).toEqual({});
    expect(value).toEqual({ list: [3] });
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
