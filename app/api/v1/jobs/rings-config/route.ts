import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { loadJobPortSummary } from "@/db/queries/job-ports";
import { ingestRingsConfig } from "@/db/queries/jobs-rings-config";
import { jobBodyLimit } from "@/db/schema/job/constants";
import { unproxiedRoute } from "@/server/auth/guard";
import { methodNotAllowedRoute } from "@/server/http/method-not-allowed";
import { readJson } from "@/server/http/body";
import { z } from "zod";

export const dynamic = "force-dynamic";

const querySchema = z.object({ cluster: z.string().trim().min(1).max(200) });

/**
 * `POST /api/v1/jobs/rings-config?cluster=<slug>`: the Ascend Operator's ConfigMap as
 * `kubectl get cm rings-config-<job> -n <ns> -o json` prints it, posted again whenever it changes. Answers
 * `{status: created|updated|unchanged, job, ports}` (201 when created; `ports` is the job's port check in counts, as
 * `GET …/jobs/{id}/ports` answers it, its bindings and findings paged there); a malformed ConfigMap is 422
 * invalid_rings_config with the path.
 */
export const POST = unproxiedRoute("write", async ({ request, actor }) => {
  const { cluster } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const body = await readJson(request, z.unknown(), jobBodyLimit);
  const handle = appDatabase();
  const result = await ingestRingsConfig(handle, cluster, body, actor);
  return NextResponse.json({ ...result, ports: await loadJobPortSummary(handle.db, result.job.id) }, { status: result.status === "created" ? 201 : 200 });
});

/** The methods this route lacks: with a body they skip proxy.ts, so the route gives its 405 (error shape, Allow) itself. */
export const GET = methodNotAllowedRoute;
export const PUT = methodNotAllowedRoute;
export const PATCH = methodNotAllowedRoute;
export const DELETE = methodNotAllowedRoute;
