/**
 * A rank-table request body (JSON such as `{"name", "text", …}` as UTF-8 bytes) to the work it asks for, in one
 * pass: decoded, parsed, checked against its route's schema, and its table canonicalised (a save) or read into an
 * inventory (an import or its preview). server/rank-table-worker.ts runs it on the request thread for small bodies
 * and in the rank-table worker for large ones, so that for a 32 MB body the request thread holds its bytes once and
 * never the decoded text, the parsed object or the table's string (each a copy of the body, and garbage collections
 * that made /api/health wait). Errors are the ones `readJson` (server/http/body.ts) gives: 400 invalid_utf8,
 * invalid_json, a ZodError (400, or 422 for text the database cannot store), and the work's own DomainErrors.
 */
import type { z } from "zod";
import { inventoryImportSchema, inventoryPreviewSchema, rankTableCreateSchema, rankTableUpdateSchema } from "@/db/schema/rank-table/validation";
import { DomainError } from "@/lib/errors";
import type { Issue } from "@/lib/rank-table";
import { canonicalize, type CanonicalTable } from "@/lib/rank-table-workspace/canonical";
import { inventoryFromRankTable, type Inventory } from "@/lib/topology/import";

export const rankTableBodySchemas = {
  create: rankTableCreateSchema,
  update: rankTableUpdateSchema,
  import: inventoryImportSchema,
  preview: inventoryPreviewSchema,
} as const;

export type RankTableBodyKind = keyof typeof rankTableBodySchemas;

/** The body's fields other than its table. */
export type RankTableBodyFields<K extends RankTableBodyKind> = Omit<z.infer<(typeof rankTableBodySchemas)[K]>, "text">;

/** What a save needs of a table (its canonical form), or what an import needs (its inventory and findings). */
export type RankTableBodyWork<K extends RankTableBodyKind> = K extends "create" | "update" ? CanonicalTable : { inventory: Inventory | null; issues: Issue[] };

export interface RankTableBody<K extends RankTableBodyKind> {
  fields: RankTableBodyFields<K>;
  work: RankTableBodyWork<K>;
}

export function readRankTableBody<K extends RankTableBodyKind>(kind: K, bytes: Uint8Array): RankTableBody<K> {
  const { text, ...fields } = parsedBody(kind, bytes);
  const work = kind === "create" || kind === "update" ? canonicalize(text) : inventoryFromRankTable(text);
  return { fields: fields as RankTableBodyFields<K>, work: work as RankTableBodyWork<K> };
}

/**
 * The body's fields, its table as a string. A function of its own so that the decoded body (as large as the bytes)
 * is garbage once it returns, before the table is parsed and written out again (the worker's 768 MB heap bounds
 * the largest save: README, "Saving a large table").
 */
function parsedBody<K extends RankTableBodyKind>(kind: K, bytes: Uint8Array): { text: string } & RankTableBodyFields<K> {
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError("bad_request", "the body is not valid UTF-8", { code: "invalid_utf8" });
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    throw new DomainError("bad_request", "the body is not valid JSON", { code: "invalid_json" });
  }
  return rankTableBodySchemas[kind].parse(value) as { text: string } & RankTableBodyFields<K>;
}
