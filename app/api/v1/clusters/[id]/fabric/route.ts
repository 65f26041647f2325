import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { loadFabric, putFabricProfile } from "@/db/queries/fabric";
import { fabricProfileChoiceSchema } from "@/db/schema/fabric/validation";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** `GET /api/v1/clusters/{id}/fabric`: the fabric profile (numbers with provenance and source) and the stored planes. */
export const GET = route<Context>("read", async ({ context }) => {
  const { id } = await context.params;
  return NextResponse.json(await loadFabric(appDatabase().db, id));
});

/** `PUT /api/v1/clusters/{id}/fabric` with `{"profile": "<id>" | null}`: chosen, fabric rebuilt, audited; editors only. */
export const PUT = route<Context>("write", async ({ request, context, actor }) => {
  const { id } = await context.params;
  const { profile } = await readJson(request, fabricProfileChoiceSchema);
  return NextResponse.json(await putFabricProfile(appDatabase().db, id, profile, actor));
});
