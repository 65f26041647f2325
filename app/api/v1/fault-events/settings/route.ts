import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { getFaultSettings, putFaultSettings } from "@/db/queries/faults";
import { faultSettingsInputSchema } from "@/db/schema/fault-event/validation";
import { clusterOr404 } from "@/server/faults/http";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";

export const dynamic = "force-dynamic";

/** `GET /api/v1/fault-events/settings?cluster=`: the cluster's escalation rules (MindCluster defaults until changed) and retention. */
export const GET = route("read", async ({ request }) => {
  const cluster = await clusterOr404(new URL(request.url).searchParams.get("cluster"));
  return NextResponse.json(await getFaultSettings(appDatabase().pool, cluster.id));
});

/** `PUT /api/v1/fault-events/settings?cluster=`: `{escalation: {duration: […], frequency: […]}, retentionDays}`; applies to events judged from now on. */
export const PUT = route("write", async ({ request, actor }) => {
  const cluster = await clusterOr404(new URL(request.url).searchParams.get("cluster"));
  const body = await readJson(request, faultSettingsInputSchema);
  return NextResponse.json(await putFaultSettings(appDatabase(), cluster, body, actor));
});
