import "server-only";
import type { z } from "zod";
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
 * The body's bytes, at most `limit` of them (413 past it, on the declared length and while reading). A declared
 * length gets its buffer up front and each chunk is copied in as it arrives (and dropped), so a large body is held
 * once; a chunked one is gathered and joined once. The answer owns its memory when it is larger than Node's
 * small-buffer pool, so it can be transferred to a worker without another copy.
 */
export async function readBytes(request: Request, routeLimit: number): Promise<Uint8Array> {
  const limit = effectiveBodyLimit(request, routeLimit);
  const tooLarge = () => payloadTooLarge(limit);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const into = Number.isSafeInteger(declared) && declared > 0 ? new Uint8Array(declared) : undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit || (into && size + value.byteLength > into.byteLength)) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    if (into) into.set(value, size);
    else chunks.push(value);
    size += value.byteLength;
  }
  if (into) return size === into.byteLength ? into : into.subarray(0, size);
  // A view of what Buffer.concat made (its own memory, or a slice of the small-buffer pool), not one more copy of it.
  const joined = Buffer.concat(chunks, size);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}
