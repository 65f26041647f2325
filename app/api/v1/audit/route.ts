import { listAudit } from "@/db/queries/audit";
import { auditFilterSchema } from "@/db/schema/audit/validation";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/** The audit log, newest first, filtered by action prefix, actor, target and time range; paginated. */
export const GET = route("admin", async ({ request }) => {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const filter = auditFilterSchema.parse(params);
  return jsonRead(request, ({ db }) => listAudit(db, filter));
});
