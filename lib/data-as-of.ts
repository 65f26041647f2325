/**
 * A read answered by a read replica that is behind (db/read-database.ts) says how old its data is: the server sets
 * this response header (server/http/read-routing.ts), and the console's fetchJson copies it onto the answer as
 * `dataAsOf`, which the timeline, statistics and topology show as "data as of <time>".
 */
export const dataAsOfHeader = "rankscope-data-as-of";

/** The time (ISO 8601) an answer's data is as of, when it came from a replica that is behind; else undefined. */
export function dataAsOfOf(answer: unknown): string | undefined {
  if (answer === null || typeof answer !== "object" || !("dataAsOf" in answer)) return undefined;
  const value = (answer as { dataAsOf?: unknown }).dataAsOf;
  return typeof value === "string" ? value : undefined;
}
