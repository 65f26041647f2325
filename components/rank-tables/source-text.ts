/**
 * The text of a table being opened, as it arrives: a file read in chunks, or a saved revision's text fetched from the
 * server (GET /rank-tables/{id}/text) and, when stored gzipped, decompressed on the way. Never one string: a
 * 524,288-rank table's is about 830 MiB, longer than a string can be. The bytes are read by the text reader worker
 * (text-reader.worker.ts) and decoded by the validation worker, or both done by the validation worker itself when no
 * second worker can run.
 */
import { gzipJsonAccept, isGzipType } from "@/lib/gzip-answer";

/**
 * A saved revision's text read from the server as it arrives, by a worker: the page never holds it. `bytes`: its
 * decoded length, for the progress.
 */
export interface RemoteText {
  url: string;
  bytes: number;
}

/** A piece of the text; `read`: the bytes of text read so far of `size`. */
export interface TextPiece {
  text: string;
  read: number;
  size: number;
}

/** The source's bytes as they come, and how many there are; a revision the server does not answer throws. */
async function sourceStream(source: Blob | RemoteText): Promise<{ stream: ReadableStream<Uint8Array>; size: number }> {
  if (source instanceof Blob) return { stream: source.stream(), size: source.size };
  // A revision stored gzipped comes as stored (a fourteenth of the text at 524,288 ranks) and is decoded here as it
  // arrives; a plain one as its text.
  const response = await fetch(source.url, { headers: { accept: gzipJsonAccept } });
  if (!response.ok || !response.body) throw new Error(`${source.url} answered ${response.status}`);
  const gzip = isGzipType(response.headers.get("content-type"));
  return { stream: gzip ? response.body.pipeThrough(new DecompressionStream("gzip")) : response.body, size: source.bytes };
}

/** A piece of the source's bytes; `read`: the bytes read so far of `size`. */
export interface BytePiece {
  bytes: Uint8Array<ArrayBuffer>;
  read: number;
  size: number;
}

/** The source's bytes as they arrive (decompressed when stored gzipped). */
export async function* sourceBytes(source: Blob | RemoteText): AsyncGenerator<BytePiece> {
  const { stream, size } = await sourceStream(source);
  const reader = stream.getReader();
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    yield { bytes: value as Uint8Array<ArrayBuffer>, read, size };
  }
}

/** Pieces of bytes decoded from UTF-8 as they come (a character split between two pieces is decoded whole). */
export async function* decodePieces(pieces: AsyncIterable<BytePiece>): AsyncGenerator<TextPiece> {
  const decoder = new TextDecoder("utf-8");
  let last = { read: 0, size: 0 };
  for await (const { bytes, read, size } of pieces) {
    last = { read, size };
    yield { text: decoder.decode(bytes, { stream: true }), read, size };
  }
  const rest = decoder.decode();
  if (rest) yield { text: rest, ...last };
}

/** The source's text, decoded from UTF-8 piece by piece as its bytes arrive. */
export const sourceText = (source: Blob | RemoteText): AsyncGenerator<TextPiece> => decodePieces(sourceBytes(source));
