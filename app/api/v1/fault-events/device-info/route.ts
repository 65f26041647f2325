import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { ingestDeviceInfo } from "@/db/queries/faults";
import { maxDeviceInfoBytes } from "@/db/schema/fault-event/constants";
import { route } from "@/server/auth/guard";
import { readText } from "@/server/http/body";
import { clusterParam } from "@/server/faults/http";
import { faultDataWritten } from "@/server/faults/read-cache";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/fault-events/device-info?cluster=<slug>[&node=<server id or host IP>]`: one device-info ConfigMap
 * snapshot (`kubectl get cm mindx-dl-deviceinfo-<node> -n kube-system -o json`, its `data`, or the DeviceInfoCfg
 * JSON; on A3 its `SwitchInfoCfg` too). Faults that appeared open events, faults that cleared close them. Malformed
 * input: 422 `invalid_device_info`, details `{path, reason, params}` (lib/faults/errors.ts); nothing changes.
 */
export const POST = route("write", async ({ request, actor }) => {
  const cluster = clusterParam(request);
  const text = await readText(request, maxDeviceInfoBytes);
  if (text.trim() === "") throw new ApiError(400, "invalid_request", "the body is empty: post the ConfigMap's JSON");
  const node = new URL(request.url).searchParams.get("node");
  const result = await ingestDeviceInfo(appDatabase(), { cluster, node, body: text }, actor);
  faultDataWritten();
  return NextResponse.json(result);
});
