import "server-only";
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { DatabaseNotConfiguredError } from "@/db/client";
import { DomainError, type DomainErrorKind } from "@/lib/errors";
import { isUnstorableIssue } from "@/lib/text-safety";

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

/**
 * node-postgres reports a connection lost mid-use with plain Errors that carry no code: the socket closing under a
 * query, or a query on a client whose connection already failed (e.g. between two statements of a transaction).
 */
const connectionLostMessages = ["Connection terminated unexpectedly", "Connection terminated", "Client has encountered a connection error and is not queryable"];

/**
 * True when the error, or any error it wraps (`cause`, an AggregateError's `errors`), says the database cannot be
 * reached: drivers and ORMs wrap the socket error (e.g. Drizzle's query error has `cause.code = ECONNREFUSED`).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 8) return false;
  if (error instanceof DatabaseNotConfiguredError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && unreachableCodes.has(code)) return true;
  if (error instanceof Error && connectionLostMessages.includes(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
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
