import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { loadJobPortSummary } from "@/db/queries/job-ports";
import { createJob } from "@/db/queries/jobs";
import { listJobs } from "@/db/queries/jobs-list";
import { jobBodyLimit } from "@/db/schema/job/constants";
import { jobCreateSchema, jobListQuerySchema } from "@/db/schema/job/validation";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { readJson } from "@/server/http/body";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/** `GET /api/v1/jobs[?cluster=<slug or id>]`: jobs, newest first, with state, size, cluster and last diagnosis. */
export const GET = unproxiedRoute("read", async ({ request }) => {
  const { cluster } = jobListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return jsonRead(request, async ({ db }) => ({ items: await listJobs(db, cluster) }));
});

/**
 * `POST /api/v1/jobs`: `{cluster, name, namespace?, state?, startedAt?, endedAt?, rankTable? | rankTableId?
 * [rankTableRevision], environment?, rankEnvironment?}`. Its ranks are placed on the cluster's dies; the answer is
 * the job with its port check in counts (`ports`, as `GET …/jobs/{id}/ports` answers it: a 131,072-rank job's whole
 * check was 33 MB; its bindings and findings are paged there); 409 job_exists when the cluster has a job of that name
 * in the namespace.
 */
export const POST = unproxiedRoute("write", async ({ request, actor }) => {
  const input = await readJson(request, jobCreateSchema, jobBodyLimit);
  const handle = appDatabase();
  const job = await createJob(handle, input, actor);
  return NextResponse.json({ ...job, ports: await loadJobPortSummary(handle.db, job.id) }, { status: 201 });
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
