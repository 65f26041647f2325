/**
 * A table's text handed from the text reader worker to the validation worker over a MessagePort, piece by piece: the
 * reader fetches, decompresses and decodes while the validation worker parses, each on its own core (issue 21: gzip
 * and UTF-8 decoding were 4–5 s of the 524,288-rank open's critical path in the one worker). Ports entangled between
 * two workers carry the pieces without the page's main thread.
 *
 * The reader waits once IN_FLIGHT_CHARS are sent and not yet parsed (the parser acknowledges each piece it has
 * taken), so a reader faster than the parser never queues the table's text in the parser's heap.
 */
import type { TextPiece } from "./source-text";

export type ReaderMessage = ({ type: "piece" } & TextPiece) | { type: "end" } | { type: "error"; message: string };
/** Sent back by the parser: the characters it has taken so far. */
export interface ParserAck {
  consumed: number;
}

/** Characters sent and not yet acknowledged before the reader waits (16 MiB of ASCII text). */
export const IN_FLIGHT_CHARS = 16 * 1024 * 1024;
/** Characters per message at least (but the last): fewer, larger messages (a decoded piece is 64 KiB or less). */
export const PIECE_CHARS = 256 * 1024;

/** Sends the pieces over the port, then `end` (or `error` with what went wrong), waiting for the parser when it lags. */
export async function sendText(pieces: AsyncIterable<TextPiece>, port: MessagePort, inFlight = IN_FLIGHT_CHARS): Promise<void> {
  let sent = 0;
  let consumed = 0;
  let wake: (() => void) | undefined;
  port.onmessage = (event: MessageEvent<ParserAck>) => {
    consumed = event.data.consumed;
    wake?.();
  };
  let held: string[] = [];
  let heldChars = 0;
  const flush = (read: number, size: number) => {
    if (heldChars === 0) return;
    port.postMessage({ type: "piece", text: held.length === 1 ? held[0]! : held.join(""), read, size } satisfies ReaderMessage);
    sent += heldChars;
    held = [];
    heldChars = 0;
  };
  try {
    let last = { read: 0, size: 0 };
    for await (const { text, read, size } of pieces) {
      last = { read, size };
      if (text.length === 0) continue;
      held.push(text);
      heldChars += text.length;
      if (heldChars < PIECE_CHARS) continue;
      flush(read, size);
      while (sent - consumed > inFlight) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    flush(last.read, last.size);
    port.postMessage({ type: "end" } satisfies ReaderMessage);
  } catch (error) {
    port.postMessage({ type: "error", message: error instanceof Error ? error.message : String(error) } satisfies ReaderMessage);
  }
}

/**
 * The pieces sendText sends, as they come; throws the reader's error, or the signal's reason once it is aborted (the
 * reader was lost, or a newer open took over). Acknowledges each piece once the caller has taken it.
 */
export async function* receiveText(port: MessagePort, signal?: AbortSignal): AsyncGenerator<TextPiece> {
  const queue: ReaderMessage[] = [];
  let wake: (() => void) | undefined;
  port.onmessage = (event: MessageEvent<ReaderMessage>) => {
    queue.push(event.data);
    wake?.();
  };
  const abort = () => wake?.();
  signal?.addEventListener("abort", abort);
  let consumed = 0;
  try {
    for (;;) {
      while (queue.length === 0 && !signal?.aborted) await new Promise<void>((resolve) => (wake = resolve));
      signal?.throwIfAborted();
      const message = queue.shift()!;
      if (message.type === "end") return;
      if (message.type === "error") throw new Error(message.message);
      yield message;
      consumed += message.text.length;
      port.postMessage({ consumed } satisfies ParserAck);
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    port.close();
  }
}
