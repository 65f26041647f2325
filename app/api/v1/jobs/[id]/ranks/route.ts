import { jobClusterOf, loadJobRanksPage } from "@/db/queries/job-ranks";
import { jobRanksQuerySchema } from "@/db/schema/job/ranks";
import { notFound } from "@/lib/errors";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/jobs/{id}/ranks?offset=&limit=&sort=problems|position|rank|server|device&order=asc|desc&state=all|placed|unmatched|ip-differs&server=&pod=&q=`:
 * one page (at most 500) of the job's ranks, filtered, searched and sorted by the database, with the filtered total.
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  const query = jobRanksQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return jsonRead(request, async ({ db }) => {
    const job = await jobClusterOf(db, id);
    if (!job) throw notFound(`there is no job ${id}`);
    return loadJobRanksPage(db, id, job.clusterId, query);
  });
});
