import { NextResponse } from "next/server";
import { z } from "zod";
import { planAffinity } from "@/lib/affinity/plan";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { affinityBodyLimit, layoutFromSource, layoutSourceSchema } from "../shared";

export const dynamic = "force-dynamic";

const body = layoutSourceSchema.extend({
  npus: z.array(z.number().int().min(0).max(63)).min(1).max(64),
  processes: z.number().int().min(1).max(64).optional(),
  reserve: z.number().int().min(0).max(256).optional(),
  mode: z.union([z.literal(1), z.literal(2)]).optional(),
});

/** `POST /api/v1/affinity/plan`: a proposed CPU_AFFINITY_CONF value for a job's NPUs on a server, explained. Writes nothing. */
export const POST = route("read", async ({ request }) => {
  const input = await readJson(request, body, affinityBodyLimit);
  const reading = await layoutFromSource(input);
  const plan = planAffinity({ layout: reading.layout, npus: input.npus, processes: input.processes, reserve: input.reserve, mode: input.mode });
  return NextResponse.json({ ...reading, plan });
});
