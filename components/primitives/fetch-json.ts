import type { z } from "zod";
import { dataAsOfHeader } from "@/lib/data-as-of";
import { isGzipType } from "@/lib/gzip-answer";

/** An API failure in the console's one error shape: `{"error":{"code","message","details"?}}`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error's `details`, e.g. the reason and params a feature renders in the reader's language. */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/**
 * A response's JSON, decoded first when it came as a gzip file (lib/gzip-answer.ts: what a caller asking with
 * `gzipJsonAccept` may get) by the browser's own DecompressionStream.
 */
export function jsonOf(response: Response): Promise<unknown> {
  if (!isGzipType(response.headers.get("content-type")) || !response.body) return response.json();
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).json();
}

/** GETs or sends to `url` and checks the JSON answer; `Accept` may be replaced (`gzipJsonAccept`) through `init`. */
export async function fetchJson<T>(url: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  const body: unknown = await jsonOf(response).catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiRequestError(response.status, error?.code ?? "http_error", error?.message ?? `${url} answered ${response.status}`, error?.details);
  }
  const parsed = schema.parse(body);
  // From a read replica that is behind: keep the time its data is as of with the answer (lib/data-as-of.ts).
  const asOf = response.headers.get(dataAsOfHeader);
  return asOf && parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? { ...parsed, dataAsOf: asOf } : parsed;
}
