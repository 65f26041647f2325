/**
 * Parsing a rank table that arrives in pieces (a file read in chunks), never holding its whole text: a formatted
 * 524,288-rank "2.0" table is about 830 MiB, longer than a JavaScript string can be (V8: 2^29 - 24 characters), so
 * `file.text()` and one JSON.parse cannot read it (issue 21 item 3).
 *
 * A single pass over the characters tracks only strings, comments and nesting. Each element of an array that is a
 * member of the top-level object (rank_list, server_list, super_pod_list: where a table's size is) is cut out and
 * parsed on its own by the native JSON.parse (by parseJsonc when it has comments); everything else, the small
 * "skeleton" of the top-level object, is kept as text with a placeholder where each such array was, and parsed at
 * the end. The result is the same value parseRankTable gives for the whole text.
 *
 * Stepping over every character costs seconds at 524,288 ranks (12.9 s of worker CPU in Chromium), so the pass
 * steps over only the first element of an array and the last of each piece. From the first element it learns the
 * text that ends an element (its closing bracket's line and the comma: `\n    },` in the canonical text), finds the
 * last place that text occurs in the piece, and has JSON.parse read the elements up to it in a few calls. That guess
 * is checked by the parse itself: when the elements from a known element start to a closing bracket parse as an
 * array, that bracket closes an element (JSON's values are read the same way whatever follows them, and a comment
 * would have failed the parse). When it does not parse (a string holding that text, a comment, a syntax error), the
 * pass steps over the characters as before and finds what is wrong.
 */
import { nestsTooDeep, parseJsonc } from "./jsonc";
import { MAX_NESTING, setMember, type SyntaxReason } from "./json-scanner";
import { isJsonObject, type JsonValue } from "./model";

/** Where the pieces do not make JSON: `offset` counts UTF-16 code units from the start of the whole text. */
export class StreamSyntaxError extends Error {
  constructor(
    readonly reason: SyntaxReason,
    readonly offset: number,
  ) {
    super(`not JSON (${reason}) at character ${offset}`);
  }
}

export interface StreamedTable {
  value: JsonValue;
  commentCount: number;
}

/**
 * Where the elements of a top-level member's array go instead of into the value, if anywhere: asked with the member's
 * key when its array opens (an import reads a table's server_list element by element and keeps none of them).
 */
export type ElementSink = (key: string) => ((element: JsonValue) => void) | undefined;

/** Failed batch parses of one array before the pass stops trying them (each costs a parse of up to a piece). */
const BATCH_FAILURES = 3;

/**
 * Characters of text per batch parse at most (an element longer than that is one batch). One parse per 1 MiB piece
 * made 524,288 ranks twice as slow in Node (13.1 s CPU instead of 5.3 s with 64 KiB pieces; --trace-gc: 28 full
 * mark-compacts instead of 3, as if V8 placed what JSON.parse makes of a long text in the old generation at once).
 */
const BATCH_CHARS = 64 * 1024;

// Char codes as local constants: imported ones are read through module bindings on every character of the hot loop
// (4 s instead of 0.5 s for 26 MiB under tsx).
const LF = 10, QUOTE = 34, STAR = 42, COMMA = 44, SLASH = 47, LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93, LBRACE = 123, RBRACE = 125;

/** The characters the pass looks at outside strings and comments. */
const STRUCTURAL = new Uint8Array(128);
for (const c of [QUOTE, SLASH, COMMA, LBRACKET, RBRACKET, LBRACE, RBRACE]) STRUCTURAL[c] = 1;

/** The skeleton's stand-in for the array with this number: a string no table has (it starts with U+0000). */
const placeholder = (index: number) => `"\\u0000split:${index}"`;
const PLACEHOLDER = /^\u0000split:(\d+)$/;

/** The first unescaped quote at or after `from` (no escape pending at `from`), or -1. */
function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    for (let k = quote - 1; k >= from && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/** A member's key from its text with quotes; undefined when there is none (or it is no JSON string). */
function memberKey(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * The text that ends an element like this one before its comma: the line break and indent before its closing bracket,
 * the bracket, and what follows up to the comma. Undefined when that would not tell elements from what they hold: no
 * line break (one-line text: `},` closes inner objects too), or the element is not an object or array.
 */
function separatorOf(element: string): string | undefined {
  let close = element.length - 1;
  while (close >= 0 && isSpace(element.charCodeAt(close))) close--;
  const c = element.charCodeAt(close);
  if (c !== RBRACE && c !== RBRACKET) return undefined;
  let indent = close;
  while (indent > 0 && isSpace(element.charCodeAt(indent - 1))) indent--;
  const separator = `${element.slice(indent)},`;
  return separator.includes("\n") ? separator : undefined;
}

function parsePiece(text: string, offset: number): { value: JsonValue; comments: number } {
  try {
    const value = JSON.parse(text) as JsonValue;
    if (!nestsTooDeep(value)) return { value, comments: 0 };
  } catch {
    // Comments, or broken: the scanner says which.
  }
  const result = parseJsonc(text);
  if (!result.ok) throw new StreamSyntaxError(result.problem.reason, offset + result.problem.offset);
  return { value: result.value, comments: result.commentCount };
}

export class StreamingTableParser {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private lineComment = false;
  private blockComment = false;
  private star = false;
  private slash = false;
  /** True while inside a top-level member's array (depth ≥ 2 belongs to its current element). */
  private splitting = false;
  private topIsObject: boolean | undefined;
  /** Text of the skeleton so far, and of the current element (from earlier chunks). */
  private skeleton: string[] = [];
  private carry = "";
  private carryOffset = 0;
  private readonly arrays: JsonValue[][] = [];
  /** Per split array, the sink its elements go to instead (then only counted in `arrays`' length). */
  private readonly sinks: (((element: JsonValue) => void) | undefined)[] = [];
  /** The text of the last string closed at depth 1 (the key of the member whose value comes next), with its quotes. */
  private lastKey: string | undefined;
  /** Where the string open at depth 1 starts in the current chunk (0: in an earlier one), and its text before it. */
  private keyFrom = -1;
  private keyHead = "";
  /** What ends an element of the current split array (learnt from its first one), while batches are tried. */
  private separator: string | undefined;
  private batchFailures = 0;
  /** UTF-16 units consumed before the current chunk. */
  private consumed = 0;
  private comments = 0;

  /** `elements`: where the elements of a top-level member's array go instead of into the value (none by default). */
  constructor(private readonly elements?: ElementSink) {}

  /** Reads the next piece of text. Throws StreamSyntaxError where the text cannot be JSON. */
  push(chunk: string): void {
    const length = chunk.length;
    this.keyFrom = 0;
    // Start of the text not yet copied to the skeleton or the current element, in this chunk.
    let start = 0;
    for (let i = 0; i < length; i++) {
      let c = chunk.charCodeAt(i);
      if (!this.inString && !this.lineComment && !this.blockComment && !this.slash) {
        // Between tokens: whitespace, numbers, colons and literals are stepped over in a tight loop.
        while (c >= 128 || STRUCTURAL[c] === 0) {
          if (++i === length) break;
          c = chunk.charCodeAt(i);
        }
        if (i === length) break;
      }
      if (this.inString) {
        // Most of a table's text is inside strings: jump to the closing quote instead of stepping to it.
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        const end = closingQuote(chunk, i);
        if (end < 0) {
          // The string goes on in the next piece; an odd run of backslashes at the end escapes its first character.
          let backslashes = 0;
          for (let k = length - 1; k >= i && chunk.charCodeAt(k) === BACKSLASH; k--) backslashes++;
          this.escaped = backslashes % 2 === 1;
          break;
        }
        this.inString = false;
        if (this.depth === 1) this.lastKey = this.keyHead + chunk.slice(this.keyFrom, end + 1);
        i = end;
        continue;
      }
      if (this.lineComment) {
        if (c === LF) this.lineComment = false;
        continue;
      }
      if (this.blockComment) {
        if (this.star && c === SLASH) this.blockComment = false;
        this.star = c === STAR;
        continue;
      }
      if (this.slash) {
        this.slash = false;
        if (c === SLASH || c === STAR) {
          this.comments++;
          if (c === SLASH) this.lineComment = true;
          else {
            this.blockComment = true;
            this.star = false;
          }
          continue;
        }
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.keyFrom = i;
          this.keyHead = "";
          break;
        case SLASH:
          this.slash = true;
          break;
        case LBRACE:
        case LBRACKET:
          if (this.depth === 0 && this.topIsObject === undefined) this.topIsObject = c === LBRACE;
          if (this.depth === 1 && c === LBRACKET && this.topIsObject) {
            this.skeleton.push(this.carry, chunk.slice(start, i), placeholder(this.arrays.length));
            this.arrays.push([]);
            this.sinks.push(this.elements?.(memberKey(this.lastKey) ?? ""));
            this.separator = undefined;
            this.batchFailures = 0;
            this.splitting = true;
            this.depth = 2;
            this.carry = "";
            start = i + 1;
            this.carryOffset = this.consumed + start;
            continue;
          }
          if (++this.depth > MAX_NESTING) throw new StreamSyntaxError("too-deep", this.consumed + i);
          break;
        case RBRACE:
        case RBRACKET:
          if (this.splitting && this.depth === 2) {
            if (c !== RBRACKET) throw new StreamSyntaxError("unexpected-character", this.consumed + i);
            this.element(this.carry + chunk.slice(start, i), true);
            this.splitting = false;
            this.depth = 1;
            this.carry = "";
            start = i + 1;
            continue;
          }
          if (--this.depth < 0) throw new StreamSyntaxError("unexpected-character", this.consumed + i);
          break;
        case COMMA:
          if (this.splitting && this.depth === 2) {
            const text = this.carry + chunk.slice(start, i);
            this.element(text, false);
            if (this.separator === undefined && this.batchFailures < BATCH_FAILURES) this.separator = separatorOf(text);
            this.carry = "";
            // At an element start: the elements up to the last separator of this piece in one parse, if they are.
            const comma = this.separator === undefined ? -1 : this.batch(chunk, i + 1);
            if (comma >= 0) i = comma;
            start = i + 1;
            this.carryOffset = this.consumed + start;
          }
          break;
      }
    }
    if (this.inString && this.depth === 1) this.keyHead += chunk.slice(this.keyFrom);
    if (this.splitting) this.carry += chunk.slice(start);
    else {
      this.skeleton.push(this.carry, chunk.slice(start));
      this.carry = "";
    }
    this.consumed += length;
  }

  /** One element of a split array; `last` when the array closed after it (an empty text is then no element). */
  private element(text: string, last: boolean): void {
    const array = this.arrays[this.arrays.length - 1]!;
    // Only whitespace (or comments, which are rare: the costly check runs only when the text starts with one).
    const first = /\S/.exec(text);
    if (first === null || (text[first.index] === "/" && !/\S/.test(text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "")))) {
      if (last && array.length === 0) return;
      throw new StreamSyntaxError("unexpected-character", this.carryOffset + text.length);
    }
    // Comments were counted by the pass itself.
    this.take(array, parsePiece(text, this.carryOffset).value);
  }

  /** An element of the current split array: to its sink, or into the array. */
  private take(array: JsonValue[], value: JsonValue): void {
    const sink = this.sinks[this.sinks.length - 1];
    if (sink === undefined) array.push(value);
    else {
      sink(value);
      array.length++;
    }
  }

  /**
   * Parses the elements from `from` (an element start) to the last separator of the chunk as one array and adds
   * them; answers the index of the comma that ends them, or -1 (nothing added) when they do not parse.
   */
  private batch(chunk: string, from: number): number {
    const separator = this.separator!;
    const array = this.arrays[this.arrays.length - 1]!;
    let done = -1;
    while (from < chunk.length) {
      const at = chunk.lastIndexOf(separator, from + BATCH_CHARS);
      if (at < from) break;
      const comma = at + separator.length - 1;
      let values: JsonValue[];
      try {
        values = JSON.parse(`[${chunk.slice(from, comma)}]`) as JsonValue[];
      } catch {
        values = [];
      }
      // The wrapping array stands for the split one, at depth 2 of the text.
      if (values.length === 0 || nestsTooDeep(values, 2)) {
        if (++this.batchFailures >= BATCH_FAILURES) this.separator = undefined;
        break;
      }
      for (const value of values) this.take(array, value);
      done = comma;
      from = comma + 1;
    }
    return done;
  }

  /** The table, once every piece was pushed. */
  finish(): StreamedTable {
    if (this.inString) throw new StreamSyntaxError("unterminated-string", this.consumed);
    if (this.blockComment) throw new StreamSyntaxError("unterminated-comment", this.consumed);
    if (this.depth !== 0 || this.splitting) throw new StreamSyntaxError("unexpected-end", this.consumed);
    const skeleton = this.skeleton.join("");
    this.skeleton = [];
    const { value } = parsePiece(skeleton.charCodeAt(0) === 0xfeff ? skeleton.slice(1) : skeleton, 0);
    // An array whose elements went to a sink stays an array of their number, all holes.
    if (this.arrays.length > 0 && isJsonObject(value)) {
      for (const key of Object.keys(value)) {
        const member = value[key];
        const index = typeof member === "string" ? PLACEHOLDER.exec(member)?.[1] : undefined;
        if (index !== undefined && Number(index) < this.arrays.length) setMember(value, key, this.arrays[Number(index)]!);
      }
    }
    return { value, commentCount: this.comments };
  }
}
