/**
 * Parsing rank-table text (JSON, or JSON with comments) into values, with positions for any JSON Pointer.
 *
 * Speed matters (tables reach 131,072 ranks), so plain JSON goes through the engine's native JSON.parse, which
 * also stores `__proto__` as an ordinary own key. Only text that JSON.parse refuses is scanned by hand: either it
 * has comments (we build the values ourselves) or it is broken (we say where). Positions are computed lazily, in a
 * single pass for all pointers asked for at once, so a clean table pays nothing for them.
 */
import type { SyntaxProblem } from "./json-scanner";
import { nestsTooDeep, parseJsonc } from "./jsonc";
import { locatePointers } from "./pointer-offsets";
import type { JsonValue } from "./model";

export interface TextPosition {
  /** UTF-16 offset into the text. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column, counted in UTF-16 code units (as editors do). */
  column: number;
}

/** Text parsed into a value (or a syntax problem), able to say where any JSON Pointer sits in the text. */
export class RankTableDocument {
  /** Offsets where lines start, indexed lazily: every line break before `indexedTo` is in the list. */
  private readonly lineStarts: number[] = [0];
  private indexedTo = 0;

  constructor(
    readonly text: string,
    /** The parsed value; undefined when the text is not JSON. */
    readonly value: JsonValue | undefined,
    /** Why the text is not JSON, when it is not. */
    readonly syntaxProblem: SyntaxProblem | undefined,
    /** How many comments were found (they are dropped on export). */
    readonly commentCount: number,
    /** Offset of the first comment, or -1. */
    readonly firstCommentOffset: number,
  ) {}

  /** Line and column of an offset. */
  positionAt(offset: number): TextPosition {
    const starts = this.lineStarts;
    // Only as far as the offset asked for: a finding near the top of a 200 MB table indexes a few lines, not all.
    if (offset > this.indexedTo) {
      let i = this.text.indexOf("\n", this.indexedTo);
      for (; i >= 0 && i < offset; i = this.text.indexOf("\n", i + 1)) starts.push(i + 1);
      this.indexedTo = i < 0 ? this.text.length : i;
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { offset, line: low + 1, column: offset - starts[low]! + 1 };
  }

  /** Where a pointer sits: its member's key, or its array element (nearest existing ancestor if it does not resolve). */
  locate(pointer: string): TextPosition {
    return this.locateAll([pointer]).get(pointer)!;
  }

  /** Positions of many pointers in one pass over the text. */
  locateAll(pointers: Iterable<string>): Map<string, TextPosition> {
    const positions = new Map<string, TextPosition>();
    for (const [pointer, offset] of locatePointers(this.text, pointers)) positions.set(pointer, this.positionAt(offset));
    return positions;
  }
}

/** Parses rank-table text. Never throws: check `syntaxProblem` (reported as RT000 by the validator). */
export function parseRankTable(text: string): RankTableDocument {
  try {
    // A leading byte-order mark is not JSON but is common in files saved by Windows editors.
    const value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as JsonValue;
    // Too deep: the scanner below finds where, and reports it as a syntax problem.
    if (!nestsTooDeep(value)) return new RankTableDocument(text, value, undefined, 0, -1);
  } catch {
    // Not plain JSON: comments, or broken.
  }
  const result = parseJsonc(text);
  return result.ok
    ? new RankTableDocument(text, result.value, undefined, result.commentCount, result.firstCommentOffset)
    : new RankTableDocument(text, undefined, result.problem, 0, -1);
}
