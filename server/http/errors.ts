import "server-only";
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { isDatabaseUnavailable } from "@/db/unavailable";
import { DomainError, type DomainErrorKind } from "@/lib/errors";
import { isUnstorableIssue } from "@/lib/text-safety";

// One home (db/unavailable.ts), used here for the 503 and by the read routing for its fallback to the primary.
export { isDatabaseUnavailable };

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

/** The HTTP status of each kind of domain error: the only place where the domain meets HTTP. */
export const domainErrorStatus: Record<DomainErrorKind, number> = {
  bad_request: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_required: 428,
  too_large: 413,
  invalid: 422,
  too_many: 429,
  unavailable: 503,
};

/** Seconds a client should wait before retrying when the database is unreachable. */
export const databaseRetryAfterSeconds = 5;

export function toErrorResponse(error: unknown): NextResponse<ErrorBody> {
  if (error instanceof ApiError) return errorResponse(error.status, error.code, error.message, error.details, error.headers);
  if (error instanceof DomainError) {
    const headers = error.retryAfterSeconds === undefined ? undefined : { "retry-after": String(error.retryAfterSeconds) };
    return errorResponse(domainErrorStatus[error.kind], error.code, error.message, error.details, headers);
  }
  if (error instanceof ZodError) {
    const unstorable = error.issues.find(isUnstorableIssue);
    if (unstorable) return errorResponse(422, "invalid_text", `${unstorable.path.join(".") || "the body"}: ${unstorable.message}`, error.issues);
    return errorResponse(400, "invalid_request", "the request does not have the expected shape", error.issues);
  }
  if (isDatabaseUnavailable(error)) {
    return errorResponse(503, "database_unavailable", "the database is unavailable; retry shortly", undefined, {
      "retry-after": String(databaseRetryAfterSeconds),
    });
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
