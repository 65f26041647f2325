import { describe, expect, it } from "vitest";
import type { BytePiece, TextPiece } from "./source-text";
import { PIECE_BYTES, receiveBytes, receiveText, sendBytes } from "./text-port";

/** Seeded texts of random lengths and characters (some outside ASCII). */
function pieces(seed: number, count: number): string[] {
  let state = seed;
  const next = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const alphabet = 'abc{}[]",: \n\\0123456789é中';
  const base = Array.from({ length: 140_000 }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
  return Array.from({ length: count }, () => {
    const from = Math.floor(next() * 70_000);
    return base.slice(from, from + Math.floor(next() * 70_000));
  });
}

/**
 * The texts' UTF-8 as a stream gives it: cut at seeded places that split characters between pieces, each piece in
 * a buffer of its own, or a view into a larger one.
 */
function asBytes(texts: string[]): Uint8Array<ArrayBuffer>[] {
  const all = new TextEncoder().encode(texts.join(""));
  const cuts: Uint8Array<ArrayBuffer>[] = [];
  let from = 0;
  for (const text of texts) {
    const to = Math.min(all.length, from + Buffer.byteLength(text) + (text.length % 3) - 1);
    if (to <= from) continue;
    cuts.push(text.length % 2 === 0 ? all.slice(from, to) : new Uint8Array(all.buffer, from, to - from));
    from = to;
  }
  if (from < all.length) cuts.push(all.slice(from));
  return cuts;
}

async function* asPieces(chunks: Uint8Array<ArrayBuffer>[], onYield?: (bytes: number) => void): AsyncGenerator<BytePiece> {
  let read = 0;
  const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  for (const bytes of chunks) {
    read += bytes.byteLength;
    onYield?.(bytes.byteLength);
    yield { bytes, read, size };
  }
}

describe("the text reader's port", () => {
  it("carries every byte in order, joined into fewer messages, decoded whole where a character is split", async () => {
    for (const seed of [1, 2, 3]) {
      const texts = pieces(seed, 60);
      const chunks = asBytes(texts);
      const size = Buffer.byteLength(texts.join(""));
      const { port1, port2 } = new MessageChannel();
      void sendBytes(asPieces(chunks), port1);
      const received: TextPiece[] = [];
      for await (const piece of receiveText(port2)) received.push(piece);
      expect(received.map((piece) => piece.text).join("")).toBe(texts.join(""));
      expect(received.length).toBeLessThan(chunks.length);
      expect(received.at(-1)).toMatchObject({ read: size, size });
      port1.close();
    }
  });

  it("sends pieces of at least PIECE_BYTES but the last, in buffers of their own", async () => {
    const chunks = asBytes(pieces(4, 60));
    const { port1, port2 } = new MessageChannel();
    void sendBytes(asPieces(chunks), port1);
    const received: BytePiece[] = [];
    for await (const piece of receiveBytes(port2)) received.push(piece);
    for (const piece of received.slice(0, -1)) expect(piece.bytes.byteLength).toBeGreaterThanOrEqual(PIECE_BYTES);
    for (const piece of received) expect(piece.bytes.byteLength).toBe(piece.bytes.buffer.byteLength);
    port1.close();
  });

  it("holds the reader while the parser lags: never more than the in-flight limit and a message ahead", async () => {
    const texts = pieces(7, 200);
    const chunks = asBytes(texts);
    const { port1, port2 } = new MessageChannel();
    let produced = 0;
    let taken = 0;
    let ahead = 0;
    const limit = 300_000;
    void sendBytes(asPieces(chunks, (bytes) => (ahead = Math.max(ahead, (produced += bytes) - taken))), port1, limit);
    const decoder = new TextDecoder();
    let joined = "";
    for await (const piece of receiveBytes(port2)) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      taken += piece.bytes.byteLength;
      joined += decoder.decode(piece.bytes, { stream: true });
    }
    expect(joined).toBe(texts.join(""));
    expect(ahead).toBeGreaterThan(limit);
    expect(ahead).toBeLessThanOrEqual(limit + 2 * (PIECE_BYTES + 3 * 70_000));
    port1.close();
  });

  it("throws what went wrong in the reader (a revision the server did not answer)", async () => {
    const { port1, port2 } = new MessageChannel();
    async function* failing(): AsyncGenerator<BytePiece> {
      yield { bytes: new TextEncoder().encode("x".repeat(PIECE_BYTES)), read: 1, size: 2 };
      throw new Error("/api/v1/rank-tables/7/text answered 404");
    }
    void sendBytes(failing(), port1);
    const received: string[] = [];
    await expect(async () => {
      for await (const piece of receiveText(port2)) received.push(piece.text);
    }).rejects.toThrow("answered 404");
    expect(received).toHaveLength(1);
    port1.close();
  });

  it("stops waiting when its open is aborted (the reader was lost)", async () => {
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error("the text reader failed")), 10);
    await expect(async () => {
      for await (const piece of receiveText(port2, abort.signal)) void piece;
    }).rejects.toThrow("the text reader failed");
    port1.close();
  });
});
