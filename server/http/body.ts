import "server-only";
import type { z } from "zod";
import { TimeSlices } from "@/lib/time-slices";
import { bodyLimitHeader, defaultBodyLimit } from "./body-limits";
import { ApiError } from "./errors";

/**
 * Reads a JSON body of at most `limit` bytes and checks it against `schema`: 413 when it is larger (checked on the
 * declared length and again while reading, so a lying or absent Content-Length does not help), 415 when it is not
 * JSON, 400 when it does not parse or has the wrong shape.
 */
export async function readJson<T>(request: Request, schema: z.ZodType<T>, limit = defaultBodyLimit): Promise<T> {
  assertJsonType(request);
  const text = await readText(request, limit);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_json", "the body is not valid JSON");
  }
  return schema.parse(value);
}

/** 415 unless the request says its body is JSON. */
export function assertJsonType(request: Request): void {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw new ApiError(415, "unsupported_media_type", "the body must be JSON (Content-Type: application/json)");
}

/** The body as text: UTF-8, as JSON must be (RFC 8259 §8.1); other bytes are a 400, not replacement characters stored. */
export async function readText(request: Request, limit: number): Promise<string> {
  const bytes = await readBytes(request, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, "invalid_utf8", "the body is not valid UTF-8");
  }
}

/** The limit as people read it (the editor shows this message when a save is refused): "256 MiB", "64 KiB". */
function binarySize(bytes: number): string {
  const [unit, size] = bytes >= 1024 * 1024 ? ["MiB", bytes / (1024 * 1024)] : ["KiB", bytes / 1024];
  return `${Number.isInteger(size) ? size : size.toFixed(1)} ${unit}`;
}

/** The 413 of a body past `limit` bytes. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError(413, "payload_too_large", `the body is larger than ${limit} bytes (${binarySize(limit)})`, { limit });
}

/**
 * The most a route may read of this request: its own `limit`, or less when the server's preload (scripts/body-limit.mjs)
 * stamped a smaller one; the preload ends a body one byte past its stamp, so a cut body always reads as too large.
 */
export function effectiveBodyLimit(request: Request, limit: number): number {
  const stamped = Number(request.headers.get(bodyLimitHeader) ?? NaN);
  return Number.isFinite(stamped) && stamped >= 0 ? Math.min(limit, stamped) : limit;
}

/**
 * The body's chunks as they arrive, at most `limit` bytes of them (the route's, or less by the preload's stamp): a
 * body declared larger is refused at once, before anything is read (so before a caller starts any work), and one that
 * turns out larger while it streams when its first byte past the limit arrives. A loop that stops early (a break or a
 * throw) cancels the rest.
 */
export function bodyChunks(request: Request, routeLimit: number): AsyncIterable<Uint8Array> {
  const limit = effectiveBodyLimit(request, routeLimit);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit);
  return chunksUpTo(request.body, limit);
}

/**
 * A body that arrives as fast as loopback sends it is read in one turn of the event loop after another: each socket
 * read's chunk is taken (and copied on: readBytes, portedBody) in the microtasks right after it, and libuv reads up to
 * 32 of them (2 MiB) per turn, so a 128 MiB chunked body held the loop for up to 49 ms of CPU at a time and /api/health
 * waited behind it (the hostile-input suite). Pausing a turn every slice (lib/time-slices.ts) lets the stream's
 * backpressure stop the socket's reading meanwhile, and the other requests' I/O is served in between.
 */
async function* chunksUpTo(body: ReadableStream<Uint8Array> | null, limit: number): AsyncGenerator<Uint8Array, void, undefined> {
  if (!body) return;
  const reader = body.getReader();
  const slices = new TimeSlices();
  let size = 0;
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      size += value.byteLength;
      if (size > limit) throw payloadTooLarge(limit);
      yield value;
      if (slices.due()) await slices.pause();
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => {});
  }
}

/**
 * The body's bytes, at most `limit` of them (413 past it, on the declared length and while reading: bodyChunks). A
 * declared length gets its buffer up front and each chunk is copied in as it arrives (and dropped), so a large body
 * is held once; a chunked one is gathered and joined once. The answer owns its memory when it is larger than Node's
 * small-buffer pool, so it can be transferred to a worker without another copy.
 */
export async function readBytes(request: Request, routeLimit: number): Promise<Uint8Array> {
  const limit = effectiveBodyLimit(request, routeLimit);
  const chunks = bodyChunks(request, limit);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const into = request.body && Number.isSafeInteger(declared) && declared > 0 ? new Uint8Array(declared) : undefined;
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const value of chunks) {
    // Longer than it declared: as large as the route allows or not, a body that lies about its length is refused.
    if (into && size + value.byteLength > into.byteLength) throw payloadTooLarge(limit);
    if (into) into.set(value, size);
    else parts.push(value);
    size += value.byteLength;
  }
  if (into) return size === into.byteLength ? into : into.subarray(0, size);
  // A view of what Buffer.concat made (its own memory, or a slice of the small-buffer pool), not one more copy of it.
  const joined = Buffer.concat(parts, size);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}
