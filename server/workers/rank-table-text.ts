/**
 * A save's table sent as its raw text in a stream (PUT /rank-tables/{id}/text), read in the rank-table worker piece
 * by piece: decoded, parsed by parts (lib/rank-table/stream-parse.ts), validated, and written in canonical form by
 * parts straight into gzip, so that neither the body nor the canonical text is ever one string (a 524,288-rank "2.0"
 * table's canonical text, about 830 MiB, is longer than a JavaScript string can be; issue 21).
 *
 * The request thread posts the body's chunks on a MessagePort as they arrive, then `null` at its end (or "abort" when
 * it stops reading); the worker answers each chunk with its byte length once it is parsed, which the request thread
 * counts as credit, so at most a few MiB of the body wait between the threads and the body is never held whole.
 */
import { once } from "node:events";
import type { MessagePort } from "node:worker_threads";
import { createGzip } from "node:zlib";
import { DomainError, invalid } from "@/lib/errors";
import type { JsonValue } from "@/lib/rank-table";
import { StreamingTableParser, StreamSyntaxError } from "@/lib/rank-table/stream-parse";
import { canonicalParts } from "@/lib/rank-table-workspace/canonical";
import type { ReportSummary } from "@/lib/rank-table-workspace/summary";

/** What a revision stored compressed is: the canonical text gzipped, its length in bytes, the report's summary. */
export interface StreamedText {
  gzip: Uint8Array;
  textBytes: number;
  summary: ReportSummary;
}

export type TextChunk = Uint8Array | null | "abort";

export function readTextStream(port: MessagePort): Promise<StreamedText> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parser = new StreamingTableParser();
  return new Promise<JsonValue>((resolve, reject) => {
    port.on("message", (chunk: TextChunk) => {
      try {
        if (chunk === "abort") throw new Error("the body was not read to its end");
        if (chunk === null) {
          port.close();
          const rest = decode(decoder);
          if (rest) parser.push(rest);
          resolve(parser.finish().value);
          return;
        }
        parser.push(decode(decoder, chunk));
        port.postMessage(chunk.byteLength);
      } catch (error) {
        port.close();
        reject(syntaxError(error));
      }
    });
  }).then(stored);
}

function decode(decoder: TextDecoder, chunk?: Uint8Array): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    throw new DomainError("bad_request", "the body is not valid UTF-8", { code: "invalid_utf8" });
  }
}

/** The parser's error as canonicalize gives one for text that is not JSON. */
function syntaxError(error: unknown): unknown {
  if (!(error instanceof StreamSyntaxError)) return error;
  return invalid(`the rank table is not JSON (${error.reason} at character ${error.offset})`, {
    code: "unparseable_rank_table",
    details: { reason: error.reason, offset: error.offset },
  });
}

/** The canonical text by parts into gzip (level 6: the text is a few repeated shapes, so it shrinks about 20 times). */
async function stored(value: JsonValue): Promise<StreamedText> {
  const { summary, parts } = canonicalParts(value);
  const gzip = createGzip({ level: 6 });
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = once(gzip, "end");
  let textBytes = 0;
  for (const part of parts) {
    const bytes = Buffer.from(part, "utf8");
    textBytes += bytes.byteLength;
    if (!gzip.write(bytes)) await once(gzip, "drain");
  }
  gzip.end();
  await ended;
  const joined = Buffer.concat(out);
  return { gzip: new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength), textBytes, summary };
}
