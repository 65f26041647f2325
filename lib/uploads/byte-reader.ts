/**
 * Pull-style reading of a byte stream (a request body) without holding it: the buffer keeps
 * at most one chunk plus the delimiter being looked for.
 */
export class ByteReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private ended = false;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  static from(iterable: AsyncIterable<Uint8Array>): ByteReader {
    return new ByteReader(iterable[Symbol.asyncIterator]());
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    if (this.buffer.length === 0) this.buffer = next.value;
    else {
      const joined = new Uint8Array(this.buffer.length + next.value.length);
      joined.set(this.buffer);
      joined.set(next.value, this.buffer.length);
      this.buffer = joined;
    }
    return true;
  }

  /** Exactly `n` bytes, or null when the stream ends first (what was left is discarded). */
  async exactly(n: number): Promise<Uint8Array | null> {
    while (this.buffer.length < n) if (!(await this.fill())) return null;
    const out = this.buffer.slice(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** The bytes before the next `delimiter` in chunks; the delimiter is consumed. Throws when the stream ends first. */
  async *until(delimiter: Uint8Array): AsyncGenerator<Uint8Array> {
    for (;;) {
      const at = indexOf(this.buffer, delimiter);
      if (at >= 0) {
        if (at > 0) yield this.buffer.slice(0, at);
        this.buffer = this.buffer.subarray(at + delimiter.length);
        return;
      }
      // Everything but a tail that could be the start of the delimiter can go.
      const safe = this.buffer.length - delimiter.length + 1;
      if (safe > 0) {
        yield this.buffer.slice(0, safe);
        this.buffer = this.buffer.subarray(safe);
      }
      if (!(await this.fill())) throw new Error("the stream ended before its closing delimiter");
    }
  }

  /** Reads and discards everything left. */
  async drain(): Promise<void> {
    this.buffer = new Uint8Array(0);
    while (await this.fill()) this.buffer = new Uint8Array(0);
  }
}

export function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = haystack.indexOf(first!, from); i !== -1 && i <= last; i = haystack.indexOf(first!, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export const ascii = (text: string) => new TextEncoder().encode(text);

