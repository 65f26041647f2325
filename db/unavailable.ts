import { DatabaseNotConfiguredError } from "./client";

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
