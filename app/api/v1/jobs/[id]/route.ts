import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { loadJobPortSummary } from "@/db/queries/job-ports";
import { loadJobSummary } from "@/db/queries/job-ranks";
import { deleteJob, updateJob } from "@/db/queries/jobs";
import { jobUpdateSchema } from "@/db/schema/job/validation";
import { notFound } from "@/lib/errors";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { jsonRead } from "@/server/http/read-routing";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

/**
 * The job with its environment, counts over its ranks (placed, unmatched by reason, per super pod), the view that
 * holds its dies and the first page of its ranks (the rest: `/ranks`; its table's text: `/rank-table`).
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  return jsonRead(request, async ({ db }) => {
    const job = await loadJobSummary(db, id);
    if (!job) throw notFound(`there is no job ${id}`);
    return job;
  });
});

/** `{state?, startedAt?, endedAt?, environment?, rankEnvironment?}`: what is known later about the job; answered with its port check in counts (`GET …/ports`). */
export const PATCH = route<JobContext>("write", async ({ request, context, actor }) => {
  const id = await jobIdOf(context);
  const input = await readJson(request, jobUpdateSchema);
  const handle = appDatabase();
  const job = await updateJob(handle, id, input, actor);
  return NextResponse.json({ ...job, ports: await loadJobPortSummary(handle.db, id) });
});

/** Deletes the job with its placement and diagnoses (the fault events it recorded stay in the timeline). */
export const DELETE = route<JobContext>("write", async ({ context, actor }) => {
  const id = await jobIdOf(context);
  if (!(await deleteJob(appDatabase().db, id, actor))) throw notFound(`there is no job ${id}`);
  return NextResponse.json({ deleted: id });
});
