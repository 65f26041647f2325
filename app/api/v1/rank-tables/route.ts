import { appDatabase } from "@/db/client";
import { createRankTable, listRankTables } from "@/db/queries/rank-tables";
import { unproxiedRoute } from "@/server/auth/guard";
import { rankTableBody } from "@/server/rank-table-worker";
import { detailResponse } from "./shared";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/** The saved rank tables, newest change first, each with the summary of its current revision. */
export const GET = unproxiedRoute("read", async ({ request }) => jsonRead(request, async ({ db }) => ({ items: await listRankTables(db) })));

/** Saves a new rank table (revision 1) from `{ name, text, clusterId?, comment? }` (a large body is read off the request thread). */
export const POST = unproxiedRoute("write", async ({ request, actor }) => {
  const { fields, work: canonical } = await rankTableBody(request, "create");
  return detailResponse(await createRankTable(appDatabase().db, { ...fields, text: canonical.text }, actor, canonical), 201);
});
