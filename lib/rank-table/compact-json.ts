/**
 * The whitespace between a table's JSON tokens dropped from its UTF-8 bytes as they are read, so that the thread that
 * decodes and parses them has less to do (issue 21 item 4). Half of a formatted "2.0" table is indentation (56 % of
 * the generator's text is whitespace: 2 spaces per level, 9 levels deep at the ports), and the parsing thread's work
 * to the first rows goes mostly to JSON.parse and the collector, per character. The text reader worker runs this on
 * the other core (components/rank-tables/text-reader.worker.ts), on the pieces it has time for (`pass` the others).
 *
 * The text means what it meant, valid or not:
 * - whitespace inside strings is kept (bytes of a string are copied as they are, escapes understood);
 * - a run of whitespace before a closing bracket is kept as it is: stream-parse.ts learns from the first element of
 *   an array what ends one (`\n    }` and the comma in the canonical text) and finds the same in every piece,
 *   compacted or passed;
 * - any other run between two bytes that are not `{}[],:"` becomes one space (`[1 2]` stays two numbers, and an
 *   error, instead of becoming 12), and is dropped next to one of them;
 * - from the first `/` outside a string (a comment) on, or once a passed piece has a `*` (which a block comment
 *   needs), the bytes are copied as they are: a comment runs to the end of its line or its `*​/`, and the parser
 *   counts them.
 * After a passed piece, compaction starts again after the next line break: in JSON no string holds one (a text with
 * one in a string is not JSON, and stays so).
 * Where the text is not JSON, the offsets of the error differ from the file's: the caller reads it again as it is
 * (use-validation.ts).
 */

const TAB = 9, LF = 10, CR = 13, SPACE = 32, QUOTE = 34, STAR = 42, SLASH = 47, RBRACKET = 93, BACKSLASH = 92, RBRACE = 125;

/** Bytes next to which whitespace separates nothing. */
const STRUCTURAL = new Uint8Array(256);
for (const c of [QUOTE, 44, 58, 91, RBRACKET, 123, RBRACE]) STRUCTURAL[c] = 1;

const NO_RUN = new Uint8Array(0);

/** The longest run of whitespace kept from one piece to the next (a longer one is cut: only its end is kept). */
const RUN_CARRY = 256;

export class JsonCompactor {
  private inString = false;
  private escaped = false;
  /** A comment may have started: the rest is copied as it is. */
  private verbatim = false;
  /** A piece was passed: where strings are is known again after a line break. */
  private resync = false;
  /** Whitespace met since the last byte written, perhaps at the end of earlier pieces (`run`). */
  private pending = false;
  private run: Uint8Array = NO_RUN;
  /** The last byte written outside a string (a string's last is its quote); 0 before the first. */
  private last = 0;

  /** A piece that goes as it is (the reader had no time for it). */
  pass(bytes: Uint8Array): void {
    if (bytes.indexOf(STAR) >= 0) this.verbatim = true;
    this.resync = true;
  }

  /** The next piece of bytes, compacted, in a buffer of its own (`bytes` is left as it is). */
  push(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
    if (this.verbatim) return bytes.slice();
    const length = bytes.length;
    let i = 0;
    if (this.resync) {
      // As it is up to a line break, where no string is open: pass that much.
      const lf = bytes.indexOf(LF);
      this.pass(bytes.subarray(0, lf < 0 ? length : lf));
      if (lf < 0 || this.verbatim) return bytes.slice();
      Object.assign(this, { resync: false, inString: false, escaped: false, pending: false, last: LF });
      i = lf + 1;
    }
    // A run of whitespace carried from the last piece may be kept before a closing bracket here.
    const out = new Uint8Array(length + this.run.length);
    out.set(bytes.subarray(0, i));
    let n = i;
    // Locals in the loop, written back at the end: fields are slower per byte.
    let { inString, escaped, pending, last } = this;
    // Where the pending run started in this piece (0 when it started earlier).
    let runFrom = 0;
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
        if (!pending) runFrom = i;
        pending = true;
        // Indentation, most of what is dropped, in a loop of its own.
        while (i + 1 < length && bytes[i + 1] === SPACE) i++;
        continue;
      }
      if (pending) {
        pending = false;
        if (c === RBRACE || c === RBRACKET) {
          if (runFrom === 0 && this.run.length > 0) {
            out.set(this.run, n);
            n += this.run.length;
          }
          out.set(bytes.subarray(runFrom, i), n);
          n += i - runFrom;
        } else if (STRUCTURAL[c] === 0 && STRUCTURAL[last] === 0) out[n++] = SPACE;
        runFrom = 0;
        if (this.run.length > 0) this.run = NO_RUN;
      }
      if (c === SLASH) {
        // Ends a token the way the whitespace before it did, which was kept (or there was none).
        this.verbatim = true;
        break;
      }
      out[n++] = c;
      last = c;
      if (c === QUOTE) inString = true;
    }
    if (pending && !this.verbatim) this.run = carried(this.run, bytes.subarray(runFrom));
    Object.assign(this, { inString, escaped, pending, last });
    // A view, not a copy: the port joins the pieces into messages of their own buffers (text-port.ts).
    return this.verbatim ? joinBytes(out.subarray(0, n), bytes.subarray(i)) : out.subarray(0, n);
  }
}

/** The run so far and its part in this piece, at most RUN_CARRY bytes of its end. */
function carried(before: Uint8Array, here: Uint8Array): Uint8Array {
  const run = joinBytes(before, here);
  return run.length > RUN_CARRY ? run.slice(run.length - RUN_CARRY) : run;
}

const joinBytes = (head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> => {
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  return joined;
};
