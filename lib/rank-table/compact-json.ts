/**
 * The whitespace between a table's JSON tokens dropped from its UTF-8 bytes as they are read, so that the thread that
 * decodes and parses them has less to do (issue 21 item 4). More than half of a formatted "2.0" table is indentation
 * (56 % of the generator's: 2 spaces per level, 9 levels deep at the ports), and the parsing thread's work to the first
 * rows went mostly to UTF-8 decoding and JSON.parse, both per character. The text reader worker runs this on the
 * other core (components/rank-tables/text-reader.worker.ts).
 *
 * The text means what it meant, valid or not:
 * - whitespace inside strings is kept (bytes of a string are copied as they are, escapes understood);
 * - a run of whitespace between two bytes that are not `{}[],:"` becomes one space (`[1 2]` stays two numbers, and
 *   an error, instead of becoming 12), any other run is dropped;
 * - the run before a bracket that closes an element of a top-level member's array (depth 3 → 2) becomes one line
 *   break: stream-parse.ts learns from the first element what ends one (`\n}` and the comma, here), and with the
 *   indentation gone, a line break is left nowhere else;
 * - from the first `/` outside a string (a comment) on, the bytes are copied as they are: a comment runs to the end
 *   of its line, and the comments are counted by the parser.
 * Where the text is not JSON, the offsets of the error differ from the file's: the caller reads it again as it is
 * (use-validation.ts).
 */

const TAB = 9, LF = 10, CR = 13, SPACE = 32, QUOTE = 34, SLASH = 47, LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93, LBRACE = 123, RBRACE = 125;

/** Bytes next to which whitespace separates nothing. */
const STRUCTURAL = new Uint8Array(256);
for (const c of [QUOTE, 44, 58, LBRACKET, RBRACKET, LBRACE, RBRACE]) STRUCTURAL[c] = 1;

export class JsonCompactor {
  private inString = false;
  private escaped = false;
  /** A comment was met: the rest is copied as it is. */
  private verbatim = false;
  private depth = 0;
  /** Whitespace was met since the last byte written (perhaps in an earlier piece). */
  private pending = false;
  /** The last byte written outside a string (a string's last is its quote); 0 before the first. */
  private last = 0;

  /** The next piece of bytes, compacted, in a buffer of its own (`bytes` is left as it is). */
  push(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
    if (this.verbatim) return bytes.slice();
    const length = bytes.length;
    // One more byte than the piece: a run of whitespace that ended the last piece may give one here.
    const out = new Uint8Array(length + 1);
    let n = 0;
    // Locals in the loop, written back at the end: fields are slower per byte.
    let { inString, escaped, depth, pending, last } = this;
    let i = 0;
    for (; i < length; i++) {
      let c = bytes[i]!;
      if (inString) {
        // To the closing quote in a loop of its own.
        for (;;) {
          out[n++] = c;
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            inString = false;
            break;
          }
          if (++i === length) break;
          c = bytes[i]!;
        }
        continue;
      }
      if (c <= SPACE && (c === SPACE || c === LF || c === CR || c === TAB)) {
        pending = true;
        // Indentation, most of what is dropped, in a loop of its own.
        while (i + 1 < length && bytes[i + 1] === SPACE) i++;
        continue;
      }
      if (pending) {
        pending = false;
        if ((c === RBRACE || c === RBRACKET) && depth === 3) out[n++] = LF;
        else if (STRUCTURAL[c] === 0 && STRUCTURAL[last] === 0) out[n++] = SPACE;
      }
      if (c === SLASH) {
        // Ends a token the way the whitespace before it did, which was kept (or there was none).
        this.verbatim = true;
        break;
      }
      out[n++] = c;
      last = c;
      if (c === QUOTE) inString = true;
      else if (c === LBRACE || c === LBRACKET) depth++;
      else if (c === RBRACE || c === RBRACKET) depth--;
    }
    Object.assign(this, { inString, escaped, depth, pending, last });
    // A view, not a copy: the port joins the pieces into messages of their own buffers (text-port.ts).
    return this.verbatim ? joinBytes(out.subarray(0, n), bytes.subarray(i)) : out.subarray(0, n);
  }
}

const joinBytes = (head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> => {
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  return joined;
};
