/**
 * Feeds uploaded logs to a line consumer (the HCCL diagnoser) file by file, as they arrive: a multipart form of
 * files (plog files, `.tar.gz`/`.tgz`/`.tar` archives of node directories, single `.gz` files) and pasted text, or a
 * raw body of one of those. Nothing is held whole: archives are decompressed and unpacked in stream.
 */
import { DomainError } from "@/lib/errors";
import { toReadableStream } from "./byte-reader";
import { multipartBoundary, multipartParts } from "./multipart";
import { tarEntries } from "./tar";

export interface LogSink {
  addFile(path: string): void;
  addChunk(text: string): void;
}

export interface FeedResult {
  files: number;
  /** Bytes received (compressed, as sent). */
  bytes: number;
}

type Kind = "tar.gz" | "tar" | "gz" | "text";

function kindOf(name: string | null, contentType: string | null): Kind {
  const n = (name ?? "").toLowerCase();
  if (/\.(tar\.gz|tgz)$/.test(n)) return "tar.gz";
  if (n.endsWith(".tar")) return "tar";
  if (n.endsWith(".gz")) return "gz";
  const type = (contentType ?? "").toLowerCase();
  if (/application\/(x-)?gtar|application\/(x-)?tar\+gzip/.test(type)) return "tar.gz";
  if (/application\/(x-)?tar\b/.test(type)) return "tar";
  if (/application\/(x-)?gzip/.test(type)) return "gz";
  return "text";
}

const gunzip = (data: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> => toReadableStream(data).pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);

/** Counts the bytes of a body and stops it at `limit` with DomainError too_large. */
export async function* limited(body: AsyncIterable<Uint8Array>, limit: number, counter: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    counter.bytes += chunk.length;
    if (counter.bytes > limit) throw new DomainError("too_large", `the logs are larger than ${limit} bytes`, { code: "payload_too_large", details: { limit } });
    yield chunk;
  }
}

async function feedText(sink: LogSink, path: string, data: AsyncIterable<Uint8Array>): Promise<void> {
  sink.addFile(path);
  const decoder = new TextDecoder();
  for await (const chunk of data) sink.addChunk(decoder.decode(chunk, { stream: true }));
  const rest = decoder.decode();
  if (rest) sink.addChunk(rest);
}

async function feedOne(sink: LogSink, name: string, kind: Kind, data: AsyncIterable<Uint8Array>): Promise<number> {
  try {
    if (kind === "text") {
      await feedText(sink, name, data);
      return 1;
    }
    if (kind === "gz") {
      await feedText(sink, name.replace(/\.gz$/i, ""), gunzip(data));
      return 1;
    }
    let files = 0;
    for await (const entry of tarEntries(kind === "tar.gz" ? gunzip(data) : data)) {
      // An archive inside an archive is read the same way (a node's directory packed on its own).
      files += await feedOne(sink, entry.path, kindOf(entry.path, null), entry.data);
    }
    return files;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError("invalid", `${name} could not be read as ${kind}: ${(error as Error).message}`, { code: "unreadable_logs", details: { file: name } });
  }
}

/**
 * Reads a body of logs into `sink`. `contentType` multipart/form-data: each file part by its file name, a field
 * without a file name as pasted text (`<field>.txt`); otherwise the body is one file called `name`.
 */
export async function feedLogs(body: AsyncIterable<Uint8Array>, contentType: string | null, name: string, sink: LogSink): Promise<number> {
  const boundary = multipartBoundary(contentType);
  if (boundary === null) return feedOne(sink, name, kindOf(name, contentType), body);
  let files = 0;
  try {
    for await (const part of multipartParts(body, boundary)) {
      const path = part.filename ?? `${part.name ?? "pasted"}.txt`;
      files += await feedOne(sink, path, part.filename === null ? "text" : kindOf(part.filename, part.contentType), part.body);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError("bad_request", `the multipart body could not be read: ${(error as Error).message}`, { code: "invalid_multipart" });
  }
  return files;
}
