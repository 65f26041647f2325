/**
 * Feeding logs to the HCCL diagnoser from where they are: files, directories (a directory per node), `.tar.gz` /
 * `.tgz` / `.tar` archives, gzipped files, or any byte stream (an upload, standard input). Everything is streamed and
 * decoded chunk by chunk, so a few hundred MB of logs are never held in memory. Used by `rankscope diagnose` and the
 * jobs API.
 */
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
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
const TAR = /\.(?:tar|tgz|tar\.gz)$/i;
/** Files in a log directory that are not text logs (core dumps, archives we do not open, pictures…). */
const BINARY_SNIFF = 4096;

function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, BINARY_SNIFF);
  return sample.includes(0);
}

/** Feeds one text stream as one file. Binary content (NUL bytes at its start) is skipped and reported. */
export async function feedText(diagnoser: LogDiagnoser, path: string, source: ByteSource, skipped: SkippedInput[] = []): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  let started = false;
  for await (const chunk of source) {
    if (typeof chunk === "string") {
      if (!started) diagnoser.addFile(path);
      started = true;
      diagnoser.addChunk(chunk);
      continue;
    }
    if (!started) {
      if (looksBinary(chunk)) {
        skipped.push({ path, reason: "binary content" });
        return;
      }
      diagnoser.addFile(path);
      started = true;
    }
    diagnoser.addChunk(decoder.decode(chunk, { stream: true }));
  }
  if (!started) diagnoser.addFile(path);
  diagnoser.addChunk(decoder.decode());
}

/** Feeds every file of a tar archive (gunzipped first when `gzipped`), named `<archive>/<entry>`. */
export async function feedTar(diagnoser: LogDiagnoser, archive: string, source: ByteSource, gzipped: boolean, skipped: SkippedInput[] = []): Promise<void> {
  let decoder: TextDecoder | undefined;
  let sniffing = false;
  let current = "";
  const reader = new TarReader({
    file(name) {
      current = `${archive}/${name.replace(/^\.\//, "")}`;
      decoder = new TextDecoder("utf-8");
      sniffing = true;
    },
    data(bytes) {
      if (decoder === undefined) return;
      if (sniffing) {
        sniffing = false;
        if (looksBinary(bytes) || GZIP.test(current)) {
          skipped.push({ path: current, reason: GZIP.test(current) ? "compressed file inside the archive" : "binary content" });
          decoder = undefined;
          return;
        }
        diagnoser.addFile(current);
      }
      diagnoser.addChunk(decoder.decode(bytes, { stream: true }));
    },
    end() {
      if (decoder !== undefined) {
        if (sniffing) diagnoser.addFile(current);
        diagnoser.addChunk(decoder.decode());
      }
      decoder = undefined;
    },
  });
  const bytes = gzipped ? Readable.from(source).pipe(createGunzip()) : source;
  for await (const chunk of bytes) reader.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : (chunk as Uint8Array));
  reader.finish();
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
  if (TAR.test(path)) {
    await feedTar(diagnoser, path, createReadStream(path), GZIP.test(path), skipped);
    return;
  }
  if (GZIP.test(path)) {
    await feedText(diagnoser, path.replace(GZIP, ""), createReadStream(path).pipe(createGunzip()), skipped);
    return;
  }
  await feedText(diagnoser, path, createReadStream(path, { highWaterMark: 256 * 1024 }), skipped);
}

/** Diagnoses files, directories and archives from the file system. */
export async function diagnosePaths(paths: readonly string[], options: DiagnoseOptions = {}): Promise<{ report: DiagnosisReport; skipped: SkippedInput[] }> {
  const diagnoser = new LogDiagnoser(options);
  const skipped: SkippedInput[] = [];
  for (const path of paths) await feedPath(diagnoser, path, skipped);
  return { report: diagnoser.finish(), skipped };
}
