import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { getFaultSettings, putFaultSettings, type FaultSettings } from "@/db/queries/faults";
import { faultSettingsInputSchema } from "@/db/schema/fault-event/validation";
import { clusterParam } from "@/server/faults/http";
import { route } from "@/server/auth/guard";
import { readJson } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

const settingsResponse = (settings: FaultSettings) => NextResponse.json(settings, { headers: { etag: `"${settings.version}"` } });

/** The version named by If-Match (`"1732345678123456"`, `W/"…"`, or bare); null without the header. */
function ifMatchVersion(request: Request): string | null {
  const header = request.headers.get("if-match");
  if (header === null || header.trim() === "") return null;
  const match = /^\s*(?:W\/)?"?(\d{1,20})"?\s*$/.exec(header);
  if (!match) throw new ApiError(400, "invalid_if_match", `If-Match must name a settings version such as "0" (the ETag of GET), not ${header}`);
  return match[1]!;
}

/**
 * `GET /api/v1/fault-events/settings?cluster=`: the cluster's escalation rules (MindCluster defaults until changed)
 * and retention, with `version` (also the ETag).
 */
export const GET = route("read", async ({ request }) => {
  const cluster = await getClusterOrThrow(appDatabase().db, clusterParam(request));
  return settingsResponse(await getFaultSettings(appDatabase().pool, cluster.id));
});

/**
 * `PUT /api/v1/fault-events/settings?cluster=`: `{escalation: {duration: […], frequency: […]}, retentionDays}`;
 * applies to events judged from now on. With If-Match (the console always sends it), a change that did not start
 * from the current version is refused with 409 `settings_conflict`, details.current holding what is saved.
 */
export const PUT = route("write", async ({ request, actor }) => {
  const cluster = await getClusterOrThrow(appDatabase().db, clusterParam(request));
  const expected = ifMatchVersion(request);
  const body = await readJson(request, faultSettingsInputSchema);
  return settingsResponse(await putFaultSettings(appDatabase(), cluster, body, expected, actor));
});
