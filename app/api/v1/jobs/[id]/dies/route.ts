import { loadJobDies } from "@/db/queries/job-ranks";
import { notFound } from "@/lib/errors";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/jobs/{id}/dies`: the job's dies in its scope (the smallest view holding them all), as
 * `[dieId, rank, deviceIp]`, for the job page's topology overlay; none when that view draws super pods as aggregates.
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  return jsonRead(request, async ({ db }) => {
    const dies = await loadJobDies(db, id);
    if (!dies) throw notFound(`there is no job ${id}`);
    return dies;
  });
});
