import { loadJobPortSummary } from "@/db/queries/job-ports";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/jobs/{id}/ports`: the job's port check in counts (hosts, bindings, conflicts, findings by code, hosts
 * affected); its bindings and findings a page at a time from `…/ports/bindings` and `…/ports/findings`.
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  return jsonRead(request, ({ db }) => loadJobPortSummary(db, id));
});
