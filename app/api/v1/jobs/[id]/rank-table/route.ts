import { appDatabase } from "@/db/client";
import { loadJobRankTable } from "@/db/queries/job-ranks";
import { notFound } from "@/lib/errors";
import { route } from "@/server/auth/guard";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/jobs/{id}/rank-table`: the job's rank table text as it came (application/json), 404 `not_found` when
 * the job has none yet. Its own answer since the job's (`GET /api/v1/jobs/{id}`) stays small at 100,000 ranks.
 */
export const GET = route<JobContext>("read", async ({ context }) => {
  const id = await jobIdOf(context);
  const text = await loadJobRankTable(appDatabase().db, id);
  if (text === undefined) throw notFound(`there is no job ${id}`);
  if (text === null) throw notFound(`job ${id} has no rank table yet`);
  return new Response(text, { headers: { "content-type": "application/json; charset=utf-8" } });
});
