import { describe, expect, it } from "vitest";
import { parseRankTable } from "./parse";
import { fixtureText } from "./test-support/tables";
import { validateRankTable } from "./validate";

describe("parseRankTable", () => {
  it("reads plain JSON with JSON.parse's semantics and no comments", () => {
    const document = parseRankTable('{"a": [1, "x", true, null], "b": {"c": -1.5e3}}');
    expect(document.value).toEqual({ a: [1, "x", true, null], b: { c: -1500 } });
    expect(document.commentCount).toBe(0);
    expect(document.syntaxProblem).toBeUndefined();
  });

  it("reads JSON with // and /* */ comments into the same values as without them", () => {
    const withComments = parseRankTable('{ // status\n "status": /* usable */ "completed", "n": [1, 2] /* end */ }');
    expect(withComments.value).toEqual({ status: "completed", n: [1, 2] });
    expect(withComments.commentCount).toBe(3);
    expect(withComments.positionAt(withComments.firstCommentOffset)).toMatchObject({ line: 1, column: 3 });
  });

  it("keeps the seed's examples intact once comments are removed", () => {
    const value = parseRankTable(fixtureText("seed-super-pod.jsonc")).value as { server_list: { device: { rank_id: string }[] }[] };
    expect(value.server_list[3]!.device[3]!.rank_id).toBe("15");
  });

  it("decodes escapes in strings", () => {
    const document = parseRankTable('// c\n{"k\\u00e9y": "a\\"b\\\\c\\n\\/\\t\\u4e2d"}');
    expect(document.value).toEqual({ "k\u00e9y": 'a"b\\c\n/\t中' });
  });

  it("stores __proto__ as plain data and never touches prototypes", () => {
    for (const text of ['{"__proto__": {"polluted": 1}}', '/* c */ {"__proto__": {"polluted": 1}}']) {
      const value = parseRankTable(text).value as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(["__proto__"]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("accepts a leading byte-order mark", () => {
    expect(parseRankTable('\ufeff{"a": "b"}').value).toEqual({ a: "b" });
    expect(parseRankTable('\ufeff// c\n{"a": "b"}').value).toEqual({ a: "b" });
  });

  it.each([
    ['{"a": 1,}', "unexpected-character", 1, 9],
    ['{\n  "a": tru\n}', "unexpected-character", 2, 8],
    ['{"a": "x', "unterminated-string", 1, 7],
    ['{"a": "x\ny"}', "control-character", 1, 9],
    ['{"a": "\\q"}', "bad-escape", 1, 8],
    ['{"a": 01}', "unexpected-character", 1, 8],
    ['{"a": 1.}', "bad-number", 1, 9],
    ['{"a": 1} x', "trailing-content", 1, 10],
    ['{"a": 1 /* x', "unterminated-comment", 1, 9],
    ["", "unexpected-end", 1, 1],
  ])("reports %j as %s at line %i, column %i", (text, reason, line, column) => {
    const document = parseRankTable(text);
    expect(document.value).toBeUndefined();
    expect(document.syntaxProblem?.reason).toBe(reason);
    expect(document.positionAt(document.syntaxProblem!.offset)).toMatchObject({ line, column });
    const report = validateRankTable(document);
    expect(report.issues).toEqual([expect.objectContaining({ code: "RT000", severity: "error", path: "", line, column })]);
    expect(report.issues[0]!.message).toContain(`line ${line}, column ${column}`);
  });

  it("refuses nesting deeper than 64 levels where it happens, however deep (its consumers recurse; issue 13)", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(parseRankTable(`//\n${deep}`).syntaxProblem).toMatchObject({ reason: "too-deep", offset: 3 + 64 });
    expect(parseRankTable(deep).syntaxProblem).toMatchObject({ reason: "too-deep", offset: 64 });
    expect(validateRankTable(`//\n${deep}`).issues.map((issue) => [issue.code, issue.line, issue.column])).toEqual([["RT000", 2, 65]]);
    expect(parseRankTable(`${"[".repeat(200_000)}`).syntaxProblem?.reason).toBe("too-deep");
    expect(parseRankTable(`${"[".repeat(64)}${"]".repeat(64)}`).value).toBeDefined();
    expect(parseRankTable(`{"a":${'{"b":'.repeat(63)}1${"}".repeat(64)}`).value).toBeDefined();
  });
});

describe("positions of JSON Pointers", () => {
  const text = '{\n  "server_list": [\n    {"server_id": "a", "device": [\n      {"device_id": "0"},\n      {"device_id": "1", "a/b~c": 2}\n    ]}\n  ]\n}\n';
  const document = parseRankTable(text);

  it("points at the key of a member and at an array element's value", () => {
    expect(document.locate("/server_list")).toMatchObject({ line: 2, column: 3 });
    expect(document.locate("/server_list/0")).toMatchObject({ line: 3, column: 5 });
    expect(document.locate("/server_list/0/device/1/device_id")).toMatchObject({ line: 5, column: 8 });
    expect(document.locate("")).toMatchObject({ line: 1, column: 1, offset: 0 });
  });

  it("unescapes ~0 and ~1 in pointer segments", () => {
    expect(document.locate("/server_list/0/device/1/a~1b~0c")).toMatchObject({ line: 5, column: 26 });
  });

  it("falls back to the nearest existing ancestor", () => {
    expect(document.locate("/server_list/0/device/7/rank_id")).toEqual(document.locate("/server_list/0/device"));
  });

  it("locates many pointers in one pass, the last duplicate key winning as in JSON.parse", () => {
    const duplicated = parseRankTable('{"a": 1, "a": 2}');
    expect(duplicated.value).toEqual({ a: 2 });
    expect(duplicated.locate("/a")).toMatchObject({ column: 10 });
    // The scan stops early only when no later key can repeat one on the path, however it is spelled.
    expect(parseRankTable('{"a": 1, "\\u0061": 2}').locate("/a")).toMatchObject({ column: 10 });
    expect(parseRankTable('{"a": {"b": 1}, "c": [{"b": 2}], "a": {"b": 3}}').locate("/a/b")).toMatchObject({ column: 40 });
    expect(parseRankTable('{"a": {"b": 1}, "c": [{"d": 2}]}').locate("/a/b")).toMatchObject({ column: 8 });
    const positions = document.locateAll(["/server_list/0/server_id", "/server_list/0/device/0"]);
    expect([...positions.values()].map((position) => position.line)).toEqual([3, 4]);
  });

  it("skips values whose strings hold quotes, backslashes and brackets, and comments, without losing its place", () => {
    const tricky = parseRankTable('{"a": ["x\\\\", "y\\"]}", {"b": "[{"}, -1.5e3, true, null],\n /* ] */ "c": 0, // }\n "d": "}"}');
    expect(tricky.syntaxProblem).toBeUndefined();
    expect(tricky.locate("/a/2")).toMatchObject({ line: 1, column: 24 });
    expect(tricky.locate("/c")).toMatchObject({ line: 2, column: 10 });
    expect(tricky.locate("/d")).toMatchObject({ line: 3, column: 2 });
    expect(tricky.locate("/a/4")).toMatchObject({ line: 1, column: 45 });
  });
});
