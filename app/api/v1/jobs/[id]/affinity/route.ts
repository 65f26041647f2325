import { NextResponse } from "next/server";
import { z } from "zod";
import { appDatabase } from "@/db/client";
import { loadJobAffinity } from "@/db/queries/job-affinity";
import { route } from "@/server/auth/guard";
import { jobIdOf, type JobContext } from "@/server/jobs/http";

export const dynamic = "force-dynamic";

const query = z.object({
  reserve: z.coerce.number().int().min(0).max(256).optional(),
  mode: z.enum(["1", "2"]).transform(Number).pipe(z.union([z.literal(1), z.literal(2)])).optional(),
});

/**
 * `GET /api/v1/jobs/{id}/affinity[?reserve=K&mode=1|2]`: the job's CPU_AFFINITY_CONF checked against each server
 * model's (or differing server's) stored CPU layout, a proposed value per group with its env lines, and the job's
 * servers without a stored layout.
 */
export const GET = route<JobContext>("read", async ({ request, context }) => {
  const id = await jobIdOf(context);
  const options = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  return NextResponse.json(await loadJobAffinity(appDatabase().db, id, options));
});
