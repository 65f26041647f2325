import { describe, expect, it } from "vitest";
import type { TextPiece } from "./source-text";
import { PIECE_CHARS, receiveText, sendText } from "./text-port";

/** Seeded pieces of random lengths and characters (some outside ASCII), as a decoder gives them. */
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

async function* asPieces(texts: string[], onYield?: (chars: number) => void): AsyncGenerator<TextPiece> {
  let read = 0;
  const size = texts.reduce((sum, text) => sum + text.length, 0);
  for (const text of texts) {
    read += text.length;
    onYield?.(text.length);
    yield { text, read, size };
  }
}

describe("the text reader's port", () => {
  it("carries every piece in order, joined into fewer messages, with the progress of the last one", async () => {
    for (const seed of [1, 2, 3]) {
      const texts = pieces(seed, 60);
      const { port1, port2 } = new MessageChannel();
      void sendText(asPieces(texts), port1);
      const received: TextPiece[] = [];
      for await (const piece of receiveText(port2)) received.push(piece);
      expect(received.map((piece) => piece.text).join("")).toBe(texts.join(""));
      expect(received.length).toBeLessThan(texts.length);
      for (const piece of received.slice(0, -1)) expect(piece.text.length).toBeGreaterThanOrEqual(PIECE_CHARS);
      expect(received.at(-1)).toMatchObject({ read: texts.join("").length, size: texts.join("").length });
      port1.close();
    }
  });

  it("holds the reader while the parser lags: never more than the in-flight limit and a message ahead", async () => {
    const texts = pieces(7, 200);
    const { port1, port2 } = new MessageChannel();
    let produced = 0;
    let taken = 0;
    let ahead = 0;
    const limit = 300_000;
    void sendText(asPieces(texts, (chars) => (ahead = Math.max(ahead, (produced += chars) - taken))), port1, limit);
    let joined = "";
    for await (const piece of receiveText(port2)) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      taken += piece.text.length;
      joined += piece.text;
    }
    expect(joined).toBe(texts.join(""));
    expect(ahead).toBeGreaterThan(limit);
    expect(ahead).toBeLessThanOrEqual(limit + 2 * (PIECE_CHARS + 70_000));
    port1.close();
  });

  it("throws what went wrong in the reader (a revision the server did not answer)", async () => {
    const { port1, port2 } = new MessageChannel();
    async function* failing(): AsyncGenerator<TextPiece> {
      yield { text: "x".repeat(PIECE_CHARS), read: 1, size: 2 };
      throw new Error("/api/v1/rank-tables/7/text answered 404");
    }
    void sendText(failing(), port1);
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
