import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { appDatabase } from "@/db/client";
import { storedRankTableText } from "@/db/queries/rank-tables";
import { assertCurrentRevision, checkCluster, updateRankTable } from "@/db/queries/rank-table-saves";
import { acceptsGzip } from "@/lib/gzip-answer";
import { rankTableTextQuerySchema, rankTableTextSaveQuerySchema } from "@/db/schema/rank-table/validation";
import { unproxiedRoute } from "@/server/auth/guard";
import { ApiError } from "@/server/http/errors";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { rankTableTextBody } from "@/server/rank-table-worker";
import { etag, ifMatchRevision, minimalResponse, queryOf, tableId, type IdContext } from "../../shared";

export const dynamic = "force-dynamic";

/**
 * The canonical text of the current (or `?revision=N`) revision as a stream. A revision stored gzipped (a streamed
 * save) is answered as stored, as a gzip file (`Content-Type: application/gzip`), to a client that asks for one
 * (`Accept: application/gzip`: the editor's worker, which decodes it as it arrives), else decoded as it is sent;
 * neither builds the text as one string (a 524,288-rank "2.0" table's is about 830 MiB). Not `Content-Encoding:
 * gzip`: Next.js drops that header from a route handler's answer and compresses the body itself
 * (node_modules/next/dist/server/send-response.js), so the client got the stored gzip gzipped again, and decoded it
 * once; it does not compress a type that is compressed already.
 */
export const GET = unproxiedRoute<IdContext>("read", async ({ request, context }) => {
  const id = await tableId(context);
  const { revision } = rankTableTextQuerySchema.parse(queryOf(request));
  const stored = await storedRankTableText(appDatabase().db, id, revision);
  if (!stored) throw new ApiError(404, "not_found", revision ? `rank table ${id} has no revision ${revision}` : `there is no rank table ${id}`);
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", etag: etag(stored.revision), vary: "Accept" };
  if (stored.gzip === null) return new Response(stored.text, { headers });
  if (acceptsGzip(request.headers.get("accept"))) {
    return new Response(new Uint8Array(stored.gzip), { headers: { ...headers, "content-type": "application/gzip" } });
  }
  return new Response(Readable.toWeb(Readable.from([stored.gzip]).pipe(createGunzip())) as ReadableStream<Uint8Array>, { headers });
});

/**
 * Saves a new revision from the table's raw text as the body (any formatting; `?name=&comment=&clusterId=`, the
 * fields a JSON save sends beside its text), for tables too large for a JSON body: read as it streams in, parsed,
 * validated and stored gzipped in the worker. If-Match as for PUT /rank-tables/{id}, checked before the body is read
 * (a stale one: 409 without the upload, as is an unknown cluster's 422) and again when stored. The answer is the
 * saved revision without its text (as `Prefer: return=minimal`).
 */
export const PUT = unproxiedRoute<IdContext>("write", async ({ request, context, actor }) => {
  const id = await tableId(context);
  const expected = ifMatchRevision(request);
  const fields = rankTableTextSaveQuerySchema.parse(queryOf(request));
  const db = appDatabase().db;
  await assertCurrentRevision(db, id, expected);
  await checkCluster(db, fields.clusterId);
  const stored = await rankTableTextBody(request);
  return minimalResponse(await updateRankTable(db, id, expected, fields, actor, stored));
});

export const POST = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
