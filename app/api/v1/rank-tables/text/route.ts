import { appDatabase } from "@/db/client";
import { checkCluster, createRankTable } from "@/db/queries/rank-table-saves";
import { rankTableTextCreateQuerySchema } from "@/db/schema/rank-table/validation";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { rankTableTextBody } from "@/server/rank-table-worker";
import { minimalResponse, queryOf } from "../shared";

export const dynamic = "force-dynamic";

/**
 * Creates a rank table (revision 1) from its raw text as the body (`?name=&comment=&clusterId=`), for a new table too
 * large for POST /rank-tables' JSON body: streamed into the worker, stored gzipped, as PUT /rank-tables/{id}/text saves
 * a revision. The query and the cluster are checked before the body is read; the answer is 201 with the table without
 * its text (as `Prefer: return=minimal`).
 */
export const POST = unproxiedRoute("write", async ({ request, actor }) => {
  const fields = rankTableTextCreateQuerySchema.parse(queryOf(request));
  const db = appDatabase().db;
  await checkCluster(db, fields.clusterId);
  const stored = await rankTableTextBody(request);
  return minimalResponse(await createRankTable(db, fields, actor, stored), 201);
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const GET = methodNotAllowedRoute;
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
