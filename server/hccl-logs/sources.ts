/**
 * Feeding logs to the HCCL diagnoser from where they are: files, directories (a directory per node), `.tar.gz` /
 * `.tgz` / `.tar` archives, gzipped files, or any byte stream (an upload, standard input). Everything is streamed and
 * decoded chunk by chunk, so a few hundred MB of logs are never held in memory. Used by `rankscope diagnose` and the
 * jobs API.
 */
import { createReadStream } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { DomainError } from "../../lib/errors";
import { LogDiagnoser } from "../../lib/hccl-diagnose";
import type { DiagnoseOptions, DiagnosisReport } from "../../lib/hccl-diagnose";
import { TarReader } from "./tar";

export type ByteSource = AsyncIterable<Uint8Array | string>;

/** A file left out, and why (binary content, unreadable). */
export interface SkippedInput {
  path: string;
  reason: string;
}

const GZIP = /\.(?:gz|tgz)$/i;
/** Files in a log directory that are not text logs (core dumps, archives we do not open, pictures…). */
const BINARY_SNIFF = 4096;

function looksBinary(chunk: Uint8Array | string): boolean {
  return typeof chunk === "string" ? chunk.slice(0, BINARY_SNIFF).includes("\u0000") : chunk.subarray(0, BINARY_SNIFF).includes(0);
}

/** Feeds one stream as one file (bytes go to the diagnoser undecoded: it decodes only the lines it reads). Binary
 *  content (NUL bytes at its start) is skipped and reported. */
export async function feedText(diagnoser: LogDiagnoser, path: string, source: ByteSource, skipped: SkippedInput[] = []): Promise<void> {
  let started = false;
  for await (const chunk of source) {
    if (!started) {
      if (looksBinary(chunk)) {
        skipped.push({ path, reason: "binary content" });
        return;
      }
      diagnoser.addFile(path);
      started = true;
    }
    if (typeof chunk === "string") diagnoser.addChunk(chunk);
    else diagnoser.addBytes(chunk);
  }
  if (!started) diagnoser.addFile(path);
}

/** Feeds every file of a tar archive (gunzipped first when `gzipped`), named `<archive>/<entry>`. */
export async function feedTar(diagnoser: LogDiagnoser, archive: string, source: ByteSource, gzipped: boolean, skipped: SkippedInput[] = []): Promise<void> {
  let reading = false;
  let sniffing = false;
  let current = "";
  const reader = new TarReader({
    file(name) {
      current = `${archive}/${name.replace(/^\.\//, "")}`;
      reading = true;
      sniffing = true;
    },
    data(bytes) {
      if (!reading) return;
      if (sniffing) {
        sniffing = false;
        if (looksBinary(bytes) || GZIP.test(current)) {
          skipped.push({ path: current, reason: GZIP.test(current) ? "compressed file inside the archive" : "binary content" });
          reading = false;
          return;
        }
        diagnoser.addFile(current);
      }
      diagnoser.addBytes(bytes);
    },
    end() {
      if (reading && sniffing) diagnoser.addFile(current);
      reading = false;
    },
  });
  const bytes = gzipped ? Readable.from(source).pipe(createGunzip()) : source;
  for await (const chunk of bytes) reader.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : (chunk as Uint8Array));
  reader.finish();
}

/** The first `size` bytes of a stream (fewer if it is shorter), and the whole stream again. */
async function peek(source: ByteSource, size: number): Promise<{ head: Uint8Array; stream: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = typeof next.value === "string" ? new TextEncoder().encode(next.value) : next.value;
    seen.push(chunk);
    length += chunk.length;
  }
  const head = new Uint8Array(Math.min(size, length));
  let at = 0;
  for (const chunk of seen) {
    if (at >= head.length) break;
    head.set(chunk.subarray(0, head.length - at), at);
    at += Math.min(chunk.length, head.length - at);
  }
  async function* stream(): AsyncIterable<Uint8Array> {
    yield* seen;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield typeof next.value === "string" ? new TextEncoder().encode(next.value) : next.value;
    }
  }
  return { head, stream: stream() };
}

/** What the gzipped files and archives of one upload may still unpack to, in bytes (shared by its files). */
export interface UnpackBudget {
  left: number;
  limit: number;
}

/** Counts unpacked bytes against the budget: past it, 413 (a gzip bomb is stopped, not read to its end). */
async function* spend(source: AsyncIterable<Uint8Array>, budget: UnpackBudget): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    budget.left -= chunk.length;
    if (budget.left < 0) throw new DomainError("too_large", `the logs unpack to more than ${budget.limit} bytes`, { code: "payload_too_large", details: { unpackedLimit: budget.limit } });
    yield chunk;
  }
}

const isGzip = (head: Uint8Array) => head[0] === 0x1f && head[1] === 0x8b;
const isTar = (head: Uint8Array) => new TextDecoder().decode(head.subarray(257, 262)) === "ustar";

/**
 * Feeds one upload or file whatever it holds, told by its content rather than its name: a gzip stream is unpacked, a
 * tar archive gives its files (`<name>/<entry>`), anything else is one text file. For the jobs API's uploads
 * (`request.body`, a multipart part's stream; with a `budget` of unpacked bytes) as well as the command line.
 */
export async function feedUpload(diagnoser: LogDiagnoser, name: string, source: ByteSource, skipped: SkippedInput[] = [], budget?: UnpackBudget): Promise<void> {
  let { head, stream } = await peek(source, 512);
  let unpacked = name;
  if (isGzip(head)) {
    unpacked = name.replace(/\.tgz$/i, ".tar").replace(/\.gz$/i, "");
    const gunzipped = Readable.from(stream).pipe(createGunzip()) as AsyncIterable<Uint8Array>;
    ({ head, stream } = await peek(budget ? spend(gunzipped, budget) : gunzipped, 512));
  }
  if (isTar(head)) await feedTar(diagnoser, unpacked.replace(/\.tar$/i, ""), stream, false, skipped);
  else await feedText(diagnoser, unpacked, stream, skipped);
}

/** Read buffers for plain files, reused from file to file: a job's logs are thousands of files of about 100 KB, and a
 *  fresh buffer per read (a read stream's way) made the garbage collector a fifth of the diagnosis's CPU. */
const FILE_CHUNK = 1024 * 1024;
const spareBuffers: Uint8Array[] = [];

/**
 * Feeds a file from disk: a plain text file (most of a job's logs) is read into a reused buffer, each chunk given to
 * the diagnoser (which copies nothing it keeps) before the next read; a gzip or tar file goes through feedUpload.
 */
async function feedFile(diagnoser: LogDiagnoser, path: string, skipped: SkippedInput[]): Promise<void> {
  const buffer = spareBuffers.pop() ?? new Uint8Array(FILE_CHUNK);
  const handle = await open(path, "r");
  try {
    const first = buffer.subarray(0, (await handle.read(buffer, 0, buffer.length, null)).bytesRead);
    if (isGzip(first) || isTar(first)) {
      await feedUpload(diagnoser, path, createReadStream(path, { highWaterMark: 256 * 1024 }), skipped);
      return;
    }
    async function* chunks(): AsyncIterable<Uint8Array> {
      if (first.length === 0) return;
      yield first;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    }
    await feedText(diagnoser, path, chunks(), skipped);
  } finally {
    await handle.close();
    spareBuffers.push(buffer);
  }
}

/** Feeds a file, a directory (recursively, in name order) or an archive from the file system. */
export async function feedPath(diagnoser: LogDiagnoser, path: string, skipped: SkippedInput[] = []): Promise<void> {
  const info = await stat(path);
  if (info.isDirectory()) {
    const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.isDirectory() || entry.isFile()) await feedPath(diagnoser, join(path, entry.name), skipped);
    }
    return;
  }
  await feedFile(diagnoser, path, skipped);
}

/** Diagnoses files, directories and archives from the file system. */
export async function diagnosePaths(paths: readonly string[], options: DiagnoseOptions = {}): Promise<{ report: DiagnosisReport; skipped: SkippedInput[] }> {
  const diagnoser = new LogDiagnoser(options);
  const skipped: SkippedInput[] = [];
  for (const path of paths) await feedPath(diagnoser, path, skipped);
  return { report: diagnoser.finish(), skipped };
}
