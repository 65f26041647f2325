import { z } from "zod";
import { ApiRequestError } from "@/components/primitives/fetch-json";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { revisionSummarySchema, type RankTableDetail, type RankTableListItem, type RevisionInfo } from "@/db/schema/rank-table/validation";

export const rankTablesKey = ["rank-tables"] as const;
export const rankTableKey = (id: number) => ["rank-tables", id] as const;
export const revisionsKey = (id: number) => ["rank-tables", id, "revisions"] as const;

const listItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  clusterId: z.number().nullable(),
  clusterName: z.string().nullable(),
  revision: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  summary: revisionSummarySchema,
});
const hardwareFitSchema = z.object({ code: z.literal("CL001"), severity: z.enum(["error", "warning", "info"]), message: z.string() });
const detailSchema = listItemSchema.extend({ text: z.string(), comment: z.string(), hardwareFit: hardwareFitSchema.nullable() });
const revisionSchema = z.object({
  revision: z.number(),
  author: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  createdAt: z.string(),
  comment: z.string(),
  summary: revisionSummarySchema,
});

/** A failed call with the details of the standard error shape (a 409 carries the current table). */
export class RankTableApiError extends ApiRequestError {
  constructor(status: number, code: string, message: string, details: unknown) {
    super(status, code, message, details);
  }
}

async function call<T>(url: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
    throw new RankTableApiError(response.status, error?.code ?? "http_error", error?.message ?? `${url} answered ${response.status}`, error?.details);
  }
  return schema.parse(body);
}

export const listRankTables = (): Promise<RankTableListItem[]> => call("/api/v1/rank-tables", z.object({ items: z.array(listItemSchema) })).then((body) => body.items);
export const getRankTable = (id: number): Promise<RankTableDetail> => call(`/api/v1/rank-tables/${id}`, detailSchema);
export const listRevisions = (id: number): Promise<RevisionInfo[]> => call(`/api/v1/rank-tables/${id}/revisions`, z.object({ items: z.array(revisionSchema) })).then((body) => body.items);

export async function getRevisionText(id: number, revision: number): Promise<string> {
  const response = await fetch(`/api/v1/rank-tables/${id}/export?format=json&revision=${revision}`);
  if (!response.ok) throw new ApiRequestError(response.status, "http_error", `revision ${revision} could not be read`);
  return response.text();
}

/**
 * A revision's canonical text as a Blob (GET …/text, decoded by the server if stored gzipped): the browser holds its
 * bytes, this thread never makes it a string (a 524,288-rank table's is about 830 MiB). A hosted table's restore sends
 * it back as the new revision.
 */
export async function getRevisionBlob(id: number, revision: number): Promise<Blob> {
  const response = await fetch(`/api/v1/rank-tables/${id}/text?revision=${revision}`);
  if (!response.ok) throw new ApiRequestError(response.status, "http_error", `revision ${revision} could not be read`);
  return response.blob();
}

export function createRankTable(body: { name: string; text: string; clusterId?: number | null; comment?: string }): Promise<RankTableDetail> {
  return call("/api/v1/rank-tables", detailSchema, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

export function saveRankTable(id: number, revision: number, body: { name?: string; text: string; comment?: string; clusterId?: number | null }): Promise<RankTableDetail> {
  return call(`/api/v1/rank-tables/${id}`, detailSchema, {
    method: "PUT",
    headers: { "content-type": "application/json", "if-match": `"${revision}"` },
    body: JSON.stringify(body),
  });
}

const savedSchema = detailSchema.omit({ text: true });

/** The revision a save starts from (its If-Match). */
export interface SavedRevision {
  id: number;
  revision: number;
}

/**
 * Creates (no `saved`) or saves a table whose body was assembled as a Blob (a table the worker keeps: its text is
 * never one string here). The answer leaves the text out (Prefer: return=minimal): the worker has it, and for a
 * 131,072-rank "2.0" table it is 207 MiB to send back and parse.
 */
export function saveRankTableBlob(saved: SavedRevision | undefined, body: Blob): Promise<Omit<RankTableDetail, "text">> {
  const headers = { "content-type": "application/json", prefer: "return=minimal" };
  return saved
    ? call(`/api/v1/rank-tables/${saved.id}`, savedSchema, { method: "PUT", headers: { ...headers, "if-match": `"${saved.revision}"` }, body })
    : call("/api/v1/rank-tables", savedSchema, { method: "POST", headers, body });
}

/** What a save sends beside the table. */
export interface SaveFields {
  name: string;
  comment: string;
  clusterId: number | null;
}

/**
 * Creates a table (no `saved`: POST /rank-tables/text) or saves a revision of one (PUT …/text, If-Match as for the JSON
 * save, checked before the upload is read) from its text itself, 1 GiB at most: for a table whose JSON body would pass
 * rankTableBodyLimit. The other fields go in the query, so a rename is saved with the text; the answer leaves the
 * text out, as saveRankTableBlob's does.
 */
export function saveRankTableText(saved: SavedRevision | undefined, text: Blob, fields: SaveFields): Promise<Omit<RankTableDetail, "text">> {
  const query = new URLSearchParams({ name: fields.name });
  if (fields.comment) query.set("comment", fields.comment);
  if (fields.clusterId !== null) query.set("clusterId", String(fields.clusterId));
  const init = { body: text, headers: { "content-type": "application/json" } };
  return saved
    ? call(`/api/v1/rank-tables/${saved.id}/text?${query}`, savedSchema, { ...init, method: "PUT", headers: { ...init.headers, "if-match": `"${saved.revision}"` } })
    : call(`/api/v1/rank-tables/text?${query}`, savedSchema, { ...init, method: "POST" });
}

/** What a JSON save body adds to the escaped text: the fields, `,"text":"` and `"}`. */
const jsonBodyOverhead = (json: string) => new Blob([json]).size + 10;

/**
 * Sends a table the worker keeps. Within rankTableBodyLimit as a JSON body (a new table is created, a saved one gets
 * a revision), as before; past it, its text goes to the streamed route (the 524,288-rank table of issue 21 is 434 MiB
 * as a body and about 830 MiB of text). `write` is the worker's Blob of the canonical text, the one the export
 * downloads (`jsonString`: escaped for a JSON body). The text is written first: escaping only lengthens it, so a text
 * already past the limit is sent as it is and never written escaped (that second Blob, 830 MiB at 524,288 ranks, was
 * built only to be measured). Only a text that may fit is written escaped, and written again as text in the rare case
 * its escaping passes the limit.
 */
export async function uploadHostedTable(saved: SavedRevision | undefined, fields: SaveFields, write: (jsonString: boolean) => Promise<Blob>): Promise<Omit<RankTableDetail, "text">> {
  const json = JSON.stringify(fields);
  const text = await write(false);
  if (text.size + jsonBodyOverhead(json) > rankTableBodyLimit) return saveRankTableText(saved, text, fields);
  // The body is sent as parts (the worker's Blob is never one string here); checked whole against the server's limit.
  const body = new Blob([`${json.slice(0, -1)},"text":"`, await write(true), `"}`], { type: "application/json" });
  if (body.size <= rankTableBodyLimit) return saveRankTableBlob(saved, body);
  return saveRankTableText(saved, await write(false), fields);
}

/** Links the table to a cluster (null unlinks); no new revision, so no If-Match. */
export function linkRankTable(id: number, clusterId: number | null): Promise<RankTableDetail> {
  return call(`/api/v1/rank-tables/${id}`, detailSchema, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ clusterId }) });
}

export function deleteRankTable(id: number): Promise<unknown> {
  return call(`/api/v1/rank-tables/${id}`, z.unknown(), { method: "DELETE" });
}

/** The current table a 409 names. */
export function conflictCurrent(error: unknown): RankTableDetail | undefined {
  if (!(error instanceof RankTableApiError) || error.status !== 409) return undefined;
  const parsed = z.object({ current: detailSchema }).safeParse(error.details);
  return parsed.success ? parsed.data.current : undefined;
}
