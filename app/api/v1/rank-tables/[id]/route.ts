import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { getRankTable } from "@/db/queries/rank-tables";
import { deleteRankTable, updateRankTable, updateRankTableMetadata } from "@/db/queries/rank-table-saves";
import { rankTableMetadataSchema } from "@/db/schema/rank-table/validation";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { readJson } from "@/server/http/body";
import { rankTableBody } from "@/server/rank-table-worker";
import { detailResponse, ifMatchRevision, notFound, savedResponse, tableId, type IdContext } from "../shared";

export const dynamic = "force-dynamic";

/** The rank table with the canonical text of its current revision; ETag is the revision. */
export const GET = unproxiedRoute<IdContext>("read", async ({ context }) => {
  const id = await tableId(context);
  const detail = await getRankTable(appDatabase().db, id);
  if (!detail) throw notFound(id);
  return detailResponse(detail);
});

/**
 * Saves a new revision from `{ text, name?, clusterId?, comment? }`. If-Match must name the revision the edit
 * started from; if another save came in between: 409 revision_conflict, details.current is the current table. A large
 * body is read off the request thread; `Prefer: return=minimal` leaves the text out of the answer.
 */
export const PUT = unproxiedRoute<IdContext>("write", async ({ request, context, actor }) => {
  const id = await tableId(context);
  const expected = ifMatchRevision(request);
  const { fields, work: canonical } = await rankTableBody(request, "update");
  return savedResponse(request, await updateRankTable(appDatabase().db, id, expected, { ...fields, text: canonical.text }, actor, canonical));
});

/**
 * Renames the table or links it to an inventory cluster, from `{ name?, clusterId? }` (clusterId null unlinks).
 * The content is unchanged, so no revision is added and no If-Match is needed; the answer's ETag is the
 * (unchanged) current revision. An unknown cluster: 422 unknown_cluster.
 */
export const PATCH = unproxiedRoute<IdContext>("write", async ({ request, context, actor }) => {
  const id = await tableId(context);
  const input = await readJson(request, rankTableMetadataSchema);
  return detailResponse(await updateRankTableMetadata(appDatabase().db, id, input, actor));
});

/** Deletes the rank table and all its revisions. */
export const DELETE = unproxiedRoute<IdContext>("write", async ({ context, actor }) => {
  const id = await tableId(context);
  if (!(await deleteRankTable(appDatabase().db, id, actor))) throw notFound(id);
  return NextResponse.json({ deleted: id });
});

/** The method this route lacks: with a body it skips proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const POST = methodNotAllowedRoute;
