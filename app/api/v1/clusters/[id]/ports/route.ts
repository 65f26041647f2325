import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { route } from "@/server/auth/guard";
import { clusterPortReport } from "@/db/queries/ports";

export const dynamic = "force-dynamic";

/** `GET /api/v1/clusters/{id}/ports[?job=NAME]`: each host's ports (who binds what, and why; conflicts marked) and the PT findings. */
export const GET = route<{ params: Promise<{ id: string }> }>("read", async ({ request, context }) => {
  const { id } = await context.params;
  const job = new URL(request.url).searchParams.get("job") ?? undefined;
  return NextResponse.json(await clusterPortReport(appDatabase().db, id, job));
});
