/**
 * A table's bytes handed from the text reader worker to the validation worker over a MessagePort, piece by piece: the
 * reader reads the file, or fetches and decompresses the saved revision, while the validation worker decodes and parses,
 * each on its own core. Ports entangled between two workers carry the pieces without the page's main thread.
 *
 * The pieces are bytes whose buffers are transferred, not decoded text: a string is copied twice on its way (serialised
 * by the reader, deserialised by the parser), which cost the reader more CPU than reading and decoding (Chromium,
 * 524,288 ranks: the reader's thread 12.2 s of CPU against the parser's 8.3 s to the first rows, at load 15), so the
 * reader was the pipeline's slower stage and the open took twice as long as in one worker. A transferred buffer moves
 * for nothing, and UTF-8 decoding, cheaper than that copy, stays with the parser.
 *
 * The reader waits once IN_FLIGHT_BYTES are sent and not yet taken (the parser acknowledges each piece it has taken),
 * so a reader faster than the parser never queues the table in the parser's heap.
 */
import type { JsonCompactor } from "@/lib/rank-table/compact-json";
import { decodePieces, type BytePiece, type TextPiece } from "./source-text";

export type ReaderMessage = ({ type: "piece" } & BytePiece) | { type: "end" } | { type: "error"; message: string };
/** Sent back by the parser: the bytes it has taken so far. */
export interface ParserAck {
  consumed: number;
}

/** Bytes sent and not yet acknowledged before the reader waits. */
export const IN_FLIGHT_BYTES = 16 * 1024 * 1024;
/** Bytes per message at least (but the last): fewer, larger messages (a stream's chunk can be 64 KiB or less). */
export const PIECE_BYTES = 256 * 1024;

/** The chunks as one buffer of its own (transferring a view's buffer would hand over what is not the view's). */
function joined(chunks: Uint8Array<ArrayBuffer>[], length: number): Uint8Array<ArrayBuffer> {
  const only = chunks.length === 1 ? chunks[0]! : undefined;
  if (only && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) return only;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Sends the pieces over the port, then `end` (or `error` with what went wrong), waiting for the parser when it lags.
 * With a `compactor`, a piece read while the parser has half of `inFlight` or more to take is compacted first
 * (lib/rank-table/compact-json.ts): the reader has time for it, and the parser then less to do. Compacting every
 * piece made the reader the slower of the two (524,288 ranks in Chromium: its thread 6.4 s of CPU, the parser's 4.7 s).
 */
export async function sendBytes(pieces: AsyncIterable<BytePiece>, port: MessagePort, inFlight = IN_FLIGHT_BYTES, compactor?: JsonCompactor): Promise<void> {
  let sent = 0;
  let consumed = 0;
  let wake: (() => void) | undefined;
  port.onmessage = (event: MessageEvent<ParserAck>) => {
    consumed = event.data.consumed;
    wake?.();
  };
  let held: Uint8Array<ArrayBuffer>[] = [];
  let heldBytes = 0;
  const flush = (read: number, size: number) => {
    if (heldBytes === 0) return;
    const bytes = joined(held, heldBytes);
    port.postMessage({ type: "piece", bytes, read, size } satisfies ReaderMessage, [bytes.buffer]);
    sent += heldBytes;
    held = [];
    heldBytes = 0;
  };
  try {
    let last = { read: 0, size: 0 };
    for await (const piece of pieces) {
      const { read, size } = piece;
      last = { read, size };
      let { bytes } = piece;
      if (compactor) {
        if (sent + heldBytes - consumed >= inFlight / 2) bytes = compactor.push(bytes);
        else compactor.pass(bytes);
      }
      if (bytes.byteLength === 0) continue;
      held.push(bytes);
      heldBytes += bytes.byteLength;
      if (heldBytes < PIECE_BYTES) continue;
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
 * The pieces sendBytes sends, as they come; throws the reader's error, or the signal's reason once it is aborted (the
 * reader was lost, or a newer open took over). Acknowledges each piece once the caller has taken it.
 */
export async function* receiveBytes(port: MessagePort, signal?: AbortSignal): AsyncGenerator<BytePiece> {
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
      consumed += message.bytes.byteLength;
      port.postMessage({ consumed } satisfies ParserAck);
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    port.close();
  }
}

/** The text of the pieces sendBytes sends, decoded here as they come. */
export const receiveText = (port: MessagePort, signal?: AbortSignal): AsyncGenerator<TextPiece> => decodePieces(receiveBytes(port, signal));
