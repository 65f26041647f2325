import "server-only";
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { DatabaseNotConfiguredError } from "@/db/client";

/** The one error shape every JSON endpoint answers with. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After on a 429 or WWW-Authenticate on a 401. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  details?: unknown,
  headers?: Record<string, string>,
): NextResponse<ErrorBody> {
  return NextResponse.json({ error: details === undefined ? { code, message } : { code, message, details } }, { status, headers });
}

/** Postgres connection failures (server down, refused, DNS) carry these codes. */
const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "ECONNRESET", "57P01", "57P03", "3D000"]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseNotConfiguredError) return true;
  const code = (error as { code?: string } | null)?.code;
  return code !== undefined && unreachableCodes.has(code);
}

export function toErrorResponse(error: unknown): NextResponse<ErrorBody> {
  if (error instanceof ApiError) return errorResponse(error.status, error.code, error.message, error.details, error.headers);
  if (error instanceof ZodError) {
    return errorResponse(400, "invalid_request", "the request does not have the expected shape", error.issues);
  }
  if (isDatabaseUnavailable(error)) {
    return errorResponse(503, "database_unavailable", `the database is unavailable: ${(error as Error).message}`);
  }
  console.error(error);
  return errorResponse(500, "internal_error", "an unexpected error occurred; the server log has the details");
}

/** Wraps a route handler so that every failure leaves it in the standard error shape. */
export function handler<Args extends unknown[]>(
  fn: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
