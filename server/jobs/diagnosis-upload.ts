import "server-only";
import { DomainError } from "@/lib/errors";
import { ApiError } from "@/server/http/errors";
import type { LogDiagnoser } from "@/lib/hccl-diagnose";
import { multipartBoundary, multipartParts } from "@/lib/uploads/multipart";
import { diagnosisUnpackedLimit } from "@/db/schema/job/constants";
import { feedText, feedUpload, type SkippedInput, type UnpackBudget } from "@/server/hccl-logs/sources";

/** Passes a body's chunks on, adding their bytes to `counter` (the limit is bodyChunks'). */
export async function* counted(body: AsyncIterable<Uint8Array>, counter: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    counter.bytes += chunk.length;
    yield chunk;
  }
}

/**
 * Feeds an upload of logs to the diagnoser as it arrives: a multipart form (each file part told by its content:
 * plog text, `.tar.gz`/`.tar` of node directories, `.gz`; a field without a file name is pasted text), or a raw
 * body called `name`, the gzipped ones unpacking to diagnosisUnpackedLimit at most in all. Returns the parts read.
 */
export async function feedDiagnosisUpload(diagnoser: LogDiagnoser, body: AsyncIterable<Uint8Array>, contentType: string | null, name: string, skipped: SkippedInput[]): Promise<number> {
  const boundary = multipartBoundary(contentType);
  const budget: UnpackBudget = { left: diagnosisUnpackedLimit, limit: diagnosisUnpackedLimit };
  if (boundary === null) {
    await feedUpload(diagnoser, name, body, skipped, budget);
    return 1;
  }
  let parts = 0;
  try {
    for await (const part of multipartParts(body, boundary)) {
      if (part.filename === null) await feedText(diagnoser, `${part.name ?? "pasted"}.txt`, part.body, skipped);
      else await feedUpload(diagnoser, part.filename, part.body, skipped, budget);
      parts++;
    }
  } catch (error) {
    if (error instanceof DomainError || error instanceof ApiError) throw error;
    throw new DomainError("bad_request", `the upload could not be read: ${(error as Error).message}`, { code: "invalid_upload" });
  }
  return parts;
}
