import { appDatabase } from "@/db/client";
import { createRankTable, listRankTables } from "@/db/queries/rank-tables";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { rankTableCreateSchema } from "@/db/schema/rank-table/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { canonicalRankTable } from "@/server/rank-table-worker";
import { detailResponse } from "./shared";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/** The saved rank tables, newest change first, each with the summary of its current revision. */
export const GET = route("read", async ({ request }) => jsonRead(request, async ({ db }) => ({ items: await listRankTables(db) })));

/** Saves a new rank table (revision 1) from `{ name, text, clusterId?, comment? }` (a large text is read off the request thread). */
export const POST = route("write", async ({ request, actor }) => {
  const input = await readJson(request, rankTableCreateSchema, rankTableBodyLimit);
  const canonical = await canonicalRankTable(input.text);
  return detailResponse(await createRankTable(appDatabase().db, input, actor, canonical), 201);
});
