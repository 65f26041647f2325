import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { ingestRingsConfig } from "@/db/queries/jobs-rings-config";
import { jobBodyLimit } from "@/db/schema/job/constants";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { z } from "zod";

export const dynamic = "force-dynamic";

const querySchema = z.object({ cluster: z.string().trim().min(1).max(200) });

/**
 * `POST /api/v1/jobs/rings-config?cluster=<slug>`: the Ascend Operator's ConfigMap as
 * `kubectl get cm rings-config-<job> -n <ns> -o json` prints it, posted again whenever it changes. Answers
 * `{status: created|updated|unchanged, job}` (201 when created); a malformed ConfigMap is 422 invalid_rings_config
 * with the path.
 */
export const POST = route("write", async ({ request, actor }) => {
  const { cluster } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const body = await readJson(request, z.unknown(), jobBodyLimit);
  const result = await ingestRingsConfig(appDatabase(), cluster, body, actor);
  return NextResponse.json(result, { status: result.status === "created" ? 201 : 200 });
});
