import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { JsonCompactor } from "./compact-json";
import { generateA5Table } from "./generate-a5";
import { generateFromTemplate } from "./generate";
import { parseJsonc } from "./jsonc";
import type { JsonValue } from "./model";
import { parseRankTable } from "./parse";
import { StreamingTableParser } from "./stream-parse";
import { validateRankTable } from "./validate";
import { writeRankTable } from "./write";

/**
 * `text`'s UTF-8 compacted in pieces cut at `cuts` (byte offsets, which may split a character), decoded; the pieces
 * whose numbers are in `passed` go as they are, as the reader sends those it has no time for.
 */
function compacted(text: string, cuts: number[] = [], passed: number[] = []): string {
  const bytes = new TextEncoder().encode(text);
  const compactor = new JsonCompactor();
  // The BOM kept: a test of what the compactor does with it, not the decoder.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let out = "";
  let from = 0;
  for (const [index, cut] of [...cuts.filter((at) => at > 0 && at < bytes.length).sort((a, b) => a - b), bytes.length].entries()) {
    const piece = bytes.subarray(from, Math.max(from, cut));
    if (passed.includes(index)) compactor.pass(piece);
    out += decoder.decode(passed.includes(index) ? piece : compactor.push(piece), { stream: true });
    from = Math.max(from, cut);
  }
  return out + decoder.decode();
}

const parses = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const a5 = generateA5Table({ racks: 2, npusPerRack: 16 }) as unknown as JsonValue;
const legacy = generateFromTemplate({ superPods: 2, serversPerSuperPod: 2, basePort: 16000 }) as unknown as JsonValue;

describe("JsonCompactor", () => {
  it("gives tables that stream-parse to the same value and validate to the same findings, in much less text", () => {
    for (const [table, share] of [[a5, 0.6], [legacy, 0.75]] as const) {
      const text = writeRankTable(table);
      const many = Array.from({ length: 40 }, (_, at) => at * 997);
      for (const [cuts, passed] of [[[], []], [[1, 2, 3, 500, 501, 4096], [1, 4]], [many, [0, 5, 6, 7, 20, 33]], [many, []]]) {
        const compact = compacted(text, cuts, passed);
        if (passed!.length === 0) expect(compact.length).toBeLessThan(text.length * share);
        const parser = new StreamingTableParser();
        for (let at = 0; at < compact.length; at += 5000) parser.push(compact.slice(at, at + 5000));
        const { value, commentCount } = parser.finish();
        expect(commentCount).toBe(0);
        expect(value).toEqual(parseRankTable(text).value);
        expect(validateRankTable(value)).toEqual(validateRankTable(table));
      }
    }
  });

  it("keeps what ends an element of rank_list as it is, so the stream parser reads them in batches", () => {
    const text = writeRankTable(a5);
    const compact = compacted(text);
    expect(compact.split("\n    },")).toHaveLength(text.split("\n    },").length);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const parser = new StreamingTableParser();
      parser.push(compact);
      parser.finish();
      // One parse for the first element, one batch, the skeleton (and a key or two); per element without the breaks.
      expect(parse.mock.calls.length).toBeLessThan(8);
    } finally {
      parse.mockRestore();
    }
  });

  it("keeps strings as they are, whitespace, escapes and characters outside ASCII, wherever the pieces are cut", () => {
    const text = ' { "a \\" b" : "x  y\\\\" , "c" :\t[ 1 ,\r\n 2 , { "d" : [ ] , "é 中" : " \\u0020 " } ] } ';
    const value = JSON.parse(text) as unknown;
    const bytes = new TextEncoder().encode(text).length;
    for (let cut = 0; cut <= bytes; cut++) {
      for (const second of [cut + 1, cut + 3]) expect(JSON.parse(compacted(text, [cut, second]))).toEqual(value);
    }
    expect(compacted(text)).toBe('{"a \\" b":"x  y\\\\","c":[1,2,{"d":[ ],"é 中":" \\u0020 " } ] }');
  });

  it("copies the text as it is from the first comment on, so comments end and are counted as before", () => {
    const text = '{ "a": [ 1, 2 ], // one\n  "b": [ /* two */ 3 ]\n}';
    const result = parseJsonc(compacted(text, [9, 20]));
    expect(result).toMatchObject({ ok: true, value: { a: [1, 2], b: [3] }, commentCount: 2 });
    expect(compacted(text)).toBe('{"a":[1,2 ],// one\n  "b": [ /* two */ 3 ]\n}');
  });

  it("starts again after a line break once a piece went as it is, and not at all once one had a *", () => {
    const text = '{"a": "x  y",\n  "b": [ 1 ],\n  "c": "p  q" }';
    // Passed in the middle of a string: the next piece is copied as it is up to its first line break.
    expect(compacted(text, [8, 30], [0])).toBe('{"a": "x  y",\n"b":[1 ],"c":"p  q" }');
    expect(compacted('{"a": "*",\n  "b": [ 1 ] }', [5], [0])).toBe('{"a": "*",\n  "b": [ 1 ] }');
  });

  it("keeps what is not JSON not JSON, and what is the same value (property)", () => {
    const token = fc.constantFrom("{", "}", "[", "]", ",", ":", '"', '"a b"', '"\\""', "\\", "1", "-2", ".5", "e3", "true", "nul", "l", "\ufeff", "x");
    const space = fc.constantFrom("", " ", "  ", "\n", "\t", "\r\n ");
    const text = fc.array(fc.tuple(space, token), { maxLength: 14 }).map((parts) => parts.map(([gap, part]) => gap + part).join(""));
    fc.assert(
      fc.property(text, fc.array(fc.nat(60), { maxLength: 3 }), fc.array(fc.nat(3)), (source, cuts, passed) => {
        expect(parses(compacted(source, cuts, passed))).toEqual(parses(source));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(4), fc.array(fc.nat(200), { maxLength: 4 }), fc.array(fc.nat(4)), (value, indent, cuts, passed) => {
        const source = JSON.stringify(value, null, indent);
        expect(JSON.parse(compacted(source, cuts, passed))).toEqual(JSON.parse(source));
      }),
      { numRuns: 500 },
    );
  });
});
