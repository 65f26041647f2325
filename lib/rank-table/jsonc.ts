/**
 * Parsing JSON with comments into plain values (for text JSON.parse refuses), and the nesting limit check for
 * values JSON.parse did build. Iterative, so deeply nested input cannot overflow the stack.
 */
import type { JsonObject, JsonValue } from "./model";
import { COMMA, LBRACE, LBRACKET, MAX_NESTING, QUOTE, RBRACE, RBRACKET, Scanner, setMember, SyntaxFailure, type SyntaxProblem } from "./json-scanner";

export type JsoncResult =
  | { ok: true; value: JsonValue; commentCount: number; firstCommentOffset: number }
  | { ok: false; problem: SyntaxProblem };


interface OpenContainer {
  value: JsonObject | JsonValue[];
  /** The key the next value belongs to; undefined for arrays. */
  key: string | undefined;
}

/**
 * True when a parsed value nests deeper than MAX_NESTING (containers only; `depth`: the value's own depth, when it
 * is a part of a larger text). Recursive, but the recursion stops at
 * MAX_NESTING levels, so no input can overflow the stack; recursion keeps no stack arrays, which matters on the
 * hot path (every table JSON.parse accepts goes through here).
 */
export function nestsTooDeep(value: JsonValue, depth = 1): boolean {
  return typeof value === "object" && value !== null && containerNestsTooDeep(value, depth);
}

function containerNestsTooDeep(container: JsonValue[] | JsonObject, depth: number): boolean {
  if (Array.isArray(container)) {
    for (let index = 0; index < container.length; index++) {
      const item = container[index];
      if (typeof item === "object" && item !== null && (depth >= MAX_NESTING || containerNestsTooDeep(item, depth + 1))) return true;
    }
    return false;
  }
  for (const key in container) {
    const item = container[key];
    if (typeof item === "object" && item !== null && (depth >= MAX_NESTING || containerNestsTooDeep(item, depth + 1))) return true;
  }
  return false;
}

/** Parses JSON with comments into plain values. Never throws: syntax problems come back with their offset. */
export function parseJsonc(text: string): JsoncResult {
  const scanner = new Scanner(text);
  try {
    const value = buildValue(scanner);
    scanner.skipTrivia();
    if (scanner.pos < text.length) scanner.fail("trailing-content");
    return { ok: true, value, commentCount: scanner.commentCount, firstCommentOffset: scanner.firstCommentOffset };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, problem: error.problem };
    throw error;
  }
}

function buildValue(scanner: Scanner): JsonValue {
  const text = scanner.text;
  const open: OpenContainer[] = [];
  for (;;) {
    scanner.skipTrivia();
    let value: JsonValue;
    const c = text.charCodeAt(scanner.pos);
    if (c === LBRACE || c === LBRACKET) {
      scanner.pos++;
      scanner.skipTrivia();
      const empty = text.charCodeAt(scanner.pos) === (c === LBRACE ? RBRACE : RBRACKET);
      if (!empty) {
        if (open.length >= MAX_NESTING) scanner.fail("too-deep", scanner.pos - 1);
        open.push(c === LBRACE ? { value: {}, key: scanner.readKey() } : { value: [], key: undefined });
        continue;
      }
      scanner.pos++;
      value = c === LBRACE ? {} : [];
    } else if (c === QUOTE) {
      value = scanner.readString();
    } else {
      value = scanner.readPrimitive();
    }
    // Attach the finished value to its container, closing every container that ends right after it.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) return value;
      if (top.key === undefined) (top.value as JsonValue[]).push(value);
      else setMember(top.value as JsonObject, top.key, value);
      scanner.skipTrivia();
      const next = text.charCodeAt(scanner.pos);
      if (next === COMMA) {
        scanner.pos++;
        if (top.key !== undefined) top.key = scanner.readKey();
        break;
      }
      if (next !== (top.key === undefined ? RBRACKET : RBRACE)) scanner.failHere();
      scanner.pos++;
      open.pop();
      value = top.value;
    }
  }
}
