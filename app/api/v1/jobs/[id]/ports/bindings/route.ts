import { loadJobPortBindings } from "@/db/queries/job-ports";
import { jobPortBindingsQuerySchema } from "@/db/schema/job/ports";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/jobs/{id}/ports/bindings?offset=&limit=&host=&conflict=true|false&source=`: one page (at most 500) of
 * the job's port bindings, by host and port, with the filtered total.
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  const query = jobPortBindingsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return jsonRead(request, ({ db }) => loadJobPortBindings(db, id, query));
});
