import { finished } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Transaction } from "./inventory";

/**
 * The connection a drizzle transaction runs on: COPY FROM STDIN is a protocol of its own (pg-copy-streams), not a
 * statement drizzle can send, and it must run on the transaction's connection to be part of it. drizzle's
 * node-postgres transaction keeps that connection as its session's `client` (drizzle-orm/node-postgres/session.js).
 */
export function transactionClient(tx: Transaction): pg.PoolClient {
  const client = (tx as unknown as { session?: { client?: pg.PoolClient } }).session?.client;
  if (!client || typeof client.query !== "function") throw new Error("the transaction has no connection to COPY on");
  return client;
}

/** A field of COPY's text format: `\N` for null, and backslash, tab, newline and carriage return escaped. */
export function copyField(value: string | number | null): string {
  if (value === null) return "\\N";
  if (typeof value === "number") return String(value);
  // Most values need no escaping: a test first is cheaper than always replacing.
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : value;
}

/**
 * Streams rows into `target` (`table (col, …)`) with one COPY FROM STDIN in text format on the transaction's
 * connection: `text` is the rows, each ending in a newline, fields joined by tabs and escaped (copyField). Returns
 * the rows PostgreSQL took.
 */
export async function copyText(client: pg.PoolClient, target: string, text: string): Promise<number> {
  if (!text) return 0;
  const stream = client.query(copyFrom(`copy ${target} from stdin`));
  try {
    stream.end(text);
    await finished(stream);
  } catch (error) {
    stream.destroy(error as Error);
    await finished(stream).catch(() => {});
    throw error;
  }
  return stream.rowCount;
}
