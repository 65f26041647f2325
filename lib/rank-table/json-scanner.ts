/**
 * A hand-written, single-pass scanner for JSON with `//` and `/* *\/` comments: the tokens (trivia, strings,
 * numbers, literals, keys, whole skipped values) and the syntax problems it can find.
 *
 * Two consumers share it: `parseJsonc` (./jsonc.ts) builds values for text that JSON.parse refuses, and
 * `locatePointers` (./pointer-offsets.ts) finds where JSON Pointers sit in the text. Both are iterative or bounded by
 * the pointers' depth, so deeply nested input cannot overflow the stack, and the scanner works on char codes
 * without per-token regular expressions.
 */
import type { JsonObject, JsonValue } from "./model";

export type SyntaxReason =
  | "unexpected-character"
  | "unexpected-end"
  | "unterminated-string"
  | "unterminated-comment"
  | "bad-escape"
  | "control-character"
  | "bad-number"
  | "trailing-content"
  | "too-deep";

/**
 * Deepest nesting a rank table may have. HCCL's tables nest six levels; a hostile one nested thousands deep would
 * overflow the stack of every recursive consumer (the writer, the repairs, JSON.stringify), so it is a syntax
 * problem here, found once, where the text is read.
 */
export const MAX_NESTING = 64;

export interface SyntaxProblem {
  reason: SyntaxReason;
  /** UTF-16 offset of the offending character (text.length at the end of the text). */
  offset: number;
  /** The offending character, when there is one. */
  found?: string;
}

export const TAB = 9, LF = 10, CR = 13, SPACE = 32, QUOTE = 34, PLUS = 43, COMMA = 44, MINUS = 45, DOT = 46, SLASH = 47;
export const DIGIT_0 = 48, DIGIT_9 = 57, COLON = 58, UPPER_E = 69, LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93;
export const LOWER_E = 101, LBRACE = 123, RBRACE = 125, STAR = 42, BOM = 0xfeff;

export class SyntaxFailure {
  constructor(readonly problem: SyntaxProblem) {}
}

/** Stores a member on a plain object without ever invoking the `__proto__` setter. */
export function setMember(target: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export class Scanner {
  pos = 0;
  commentCount = 0;
  firstCommentOffset = -1;

  constructor(readonly text: string) {}

  fail(reason: SyntaxReason, offset = this.pos): never {
    const found = offset < this.text.length ? this.text[offset] : undefined;
    throw new SyntaxFailure(found === undefined ? { reason, offset } : { reason, offset, found });
  }

  /** Skips whitespace (and a byte-order mark) and comments. */
  skipTrivia(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.pos);
      if (c === SPACE || c === LF || c === CR || c === TAB || c === BOM) {
        this.pos++;
      } else if (c === SLASH) {
        this.skipComment();
      } else {
        return;
      }
    }
  }

  private skipComment(): void {
    const text = this.text;
    const start = this.pos;
    const next = text.charCodeAt(start + 1);
    if (next === SLASH) {
      const end = text.indexOf("\n", start + 2);
      this.pos = end < 0 ? text.length : end;
    } else if (next === STAR) {
      const end = text.indexOf("*/", start + 2);
      if (end < 0) this.fail("unterminated-comment", start);
      this.pos = end + 2;
    } else {
      this.fail("unexpected-character", start);
    }
    if (this.commentCount++ === 0) this.firstCommentOffset = start;
  }

  expect(code: number): void {
    this.skipTrivia();
    if (this.text.charCodeAt(this.pos) !== code) this.failHere();
    this.pos++;
  }

  failHere(): never {
    this.fail(this.pos >= this.text.length ? "unexpected-end" : "unexpected-character");
  }

  /** Reads a string starting at the opening quote. Strings without escapes are one slice. */
  readString(): string {
    const text = this.text;
    const start = this.pos + 1;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return text.slice(start, i);
      }
      if (c === BACKSLASH || c < SPACE || Number.isNaN(c)) break;
      i++;
    }
    return this.readEscapedString(start, i);
  }

  private readEscapedString(start: number, firstSpecial: number): string {
    const text = this.text;
    let out = text.slice(start, firstSpecial);
    let i = firstSpecial;
    for (;;) {
      if (i >= text.length) this.fail("unterminated-string", start - 1);
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return out;
      }
      if (c < SPACE) this.fail("control-character", i);
      if (c !== BACKSLASH) {
        out += text[i];
        i++;
        continue;
      }
      const escape = text[i + 1];
      switch (escape) {
        case '"': case "\\": case "/": out += escape; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad-escape", i);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default:
          this.fail(escape === undefined ? "unterminated-string" : "bad-escape", i);
      }
      i += 2;
    }
  }

  /** Reads a number with JSON's strict grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)? */
  readNumber(): number {
    const text = this.text;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === MINUS) i++;
    const first = text.charCodeAt(i);
    if (first === DIGIT_0) i++;
    else if (first > DIGIT_0 && first <= DIGIT_9) i = this.skipDigits(i);
    else this.fail("bad-number", i);
    if (text.charCodeAt(i) === DOT) {
      const fractionStart = i + 1;
      i = this.skipDigits(fractionStart);
      if (i === fractionStart) this.fail("bad-number", i);
    }
    const e = text.charCodeAt(i);
    if (e === LOWER_E || e === UPPER_E) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      const exponentStart = i;
      i = this.skipDigits(i);
      if (i === exponentStart) this.fail("bad-number", i);
    }
    this.pos = i;
    return Number(text.slice(start, i));
  }

  private skipDigits(from: number): number {
    let i = from;
    for (let c = this.text.charCodeAt(i); c >= DIGIT_0 && c <= DIGIT_9; c = this.text.charCodeAt(++i));
    return i;
  }

  /** Reads `true`, `false`, `null` or a number at the current position. */
  readPrimitive(): JsonValue {
    const text = this.text;
    if (text.startsWith("true", this.pos)) return this.literal(4, true);
    if (text.startsWith("false", this.pos)) return this.literal(5, false);
    if (text.startsWith("null", this.pos)) return this.literal(4, null);
    const c = text.charCodeAt(this.pos);
    if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) return this.readNumber();
    return this.failHere();
  }

  private literal(length: number, value: JsonValue): JsonValue {
    this.pos += length;
    return value;
  }

  /** Reads an object key (after optional trivia) and the colon that follows it. */
  readKey(): string {
    this.skipTrivia();
    if (this.text.charCodeAt(this.pos) !== QUOTE) this.failHere();
    const key = this.readString();
    this.expect(COLON);
    return key;
  }

  /**
   * Skips one whole value without building it. Only strings, comments and brackets are followed; every other
   * character is passed over unchecked (locatePointers, the one user, reads text that JSON.parse or parseJsonc has
   * accepted). Iterative, so nesting depth costs no stack, and without slices or numbers: it passes over the whole
   * rank_list of a 131,072-rank table whenever a finding sits beside it.
   */
  skipValue(): void {
    this.skipTrivia();
    const text = this.text;
    const end = text.length;
    let i = this.pos;
    let depth = 0;
    do {
      if (i >= end) {
        this.pos = i;
        this.fail("unexpected-end");
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) i = this.stringEnd(i);
      else if (c === LBRACE || c === LBRACKET) {
        depth++;
        i++;
      } else if (c === RBRACE || c === RBRACKET) {
        depth--;
        i++;
      } else if (c === SLASH) {
        this.pos = i;
        this.skipComment();
        i = this.pos;
      } else if (depth === 0) {
        // A number or literal on its own: up to the next delimiter.
        while (i < end && !isDelimiter(text.charCodeAt(i))) i++;
      } else i++;
    } while (depth > 0);
    this.pos = i;
  }

  /** The offset after the closing quote of the string opening at `start`: a quote preceded by an even run of backslashes. */
  private stringEnd(start: number): number {
    const text = this.text;
    for (let from = start + 1; ; ) {
      const quote = text.indexOf('"', from);
      if (quote < 0) this.fail("unterminated-string", start);
      let before = quote - 1;
      while (text.charCodeAt(before) === BACKSLASH) before--;
      if ((quote - 1 - before) % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }
}

const isDelimiter = (c: number) => c === COMMA || c === RBRACE || c === RBRACKET || c === SLASH || c === SPACE || c === LF || c === CR || c === TAB;
