import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { auditFilterSchema } from "@/db/schema/audit/validation";
import { route } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** The audit log, newest first, filtered by action prefix, actor, target and time range; paginated. */
export const GET = route("admin", async ({ request }) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  return NextResponse.json(await listAudit(appDatabase().db, auditFilterSchema.parse(params)));
});
