import { appDatabase } from "@/db/client";
import { listRankTables } from "@/db/queries/rank-tables";
import { createRankTable } from "@/db/queries/rank-table-saves";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { rankTableBody } from "@/server/rank-table-worker";
import { savedResponse } from "./shared";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/** The saved rank tables, newest change first, each with the summary of its current revision. */
export const GET = unproxiedRoute("read", async ({ request }) => jsonRead(request, async ({ db }) => ({ items: await listRankTables(db) })));

/** Saves a new rank table (revision 1) from `{ name, text, clusterId?, comment? }` (a large body is read off the request thread); `Prefer: return=minimal` leaves the text out of the answer. */
export const POST = unproxiedRoute("write", async ({ request, actor }) => {
  const { fields, work: canonical } = await rankTableBody(request, "create");
  return savedResponse(request, await createRankTable(appDatabase().db, { ...fields, text: canonical.text }, actor, canonical), 201);
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
