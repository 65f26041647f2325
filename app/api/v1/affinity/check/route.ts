import { NextResponse } from "next/server";
import { z } from "zod";
import { checkAffinity } from "@/lib/affinity/check";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { affinityBodyLimit, layoutFromSource, layoutSourceSchema } from "../shared";

export const dynamic = "force-dynamic";

const body = layoutSourceSchema.extend({
  value: z.string().max(4096),
  jobNpus: z.array(z.number().int().min(0).max(63)).max(64).optional(),
  visibleDevices: z.string().max(512).optional(),
});

/** `POST /api/v1/affinity/check`: findings (CA…, English and Chinese) for a CPU_AFFINITY_CONF value on a server. Writes nothing. */
export const POST = route("read", async ({ request }) => {
  const input = await readJson(request, body, affinityBodyLimit);
  const reading = await layoutFromSource(input);
  const check = checkAffinity({ value: input.value, layout: reading.layout, jobNpus: input.jobNpus, visibleDevices: input.visibleDevices });
  return NextResponse.json({ ...reading, check });
});
