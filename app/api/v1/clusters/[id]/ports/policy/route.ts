import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { putPortPolicy } from "@/db/queries/ports";
import { portPolicySchema } from "@/lib/ports/policy";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";

export const dynamic = "force-dynamic";

/** `PUT /api/v1/clusters/{id}/ports/policy` with a whole port policy (lib/ports/policy.ts): stored, audited; editors only. */
export const PUT = route<{ params: Promise<{ id: string }> }>("write", async ({ request, context, actor }) => {
  const { id } = await context.params;
  const policy = await readJson(request, portPolicySchema);
  return NextResponse.json(await putPortPolicy(appDatabase().db, id, policy, actor));
});
