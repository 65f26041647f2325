import { loadJobPortFindings } from "@/db/queries/job-ports";
import { jobPortFindingsQuerySchema } from "@/db/schema/job/ports";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/jobs/{id}/ports/findings?offset=&limit=&code=PT001…&severity=error|warning`: one page (at most 500) of
 * the job's port findings, errors first, each with its first hosts and ranks and their counts.
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  const query = jobPortFindingsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return jsonRead(request, ({ db }) => loadJobPortFindings(db, id, query));
});
