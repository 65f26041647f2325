import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { clusterPortPlan } from "@/db/queries/ports";
import { planBodySchema } from "@/db/schema/port-policy/validation";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/clusters/{id}/ports/plan` `{move?, failover?, job?, apply?}`: the conflict-free port plan of the
 * cluster's live jobs (changes, diff, env lines, patched rank tables and ConfigMaps, what remains). A dry run unless
 * `apply: true`, which writes the jobs' port variables and rank tables, audited. Editors only.
 */
export const POST = route<{ params: Promise<{ id: string }> }>("write", async ({ request, context, actor }) => {
  const { id } = await context.params;
  const body = await readJson(request, planBodySchema);
  return NextResponse.json(await clusterPortPlan(appDatabase().db, id, body, actor));
});
