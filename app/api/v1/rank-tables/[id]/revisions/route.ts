import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { listRevisions } from "@/db/queries/rank-tables";
import { route } from "@/server/auth/guard";
import { notFound, tableId, type IdContext } from "../../shared";

export const dynamic = "force-dynamic";

/** Every saved revision, newest first: number, author, time, comment, validation summary. */
export const GET = route<IdContext>("read", async ({ context }) => {
  const id = await tableId(context);
  const items = await listRevisions(appDatabase().db, id);
  if (!items) throw notFound(id);
  return NextResponse.json({ items });
});
