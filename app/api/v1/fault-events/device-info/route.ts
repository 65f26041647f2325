import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { DeviceInfoTargetError, ingestDeviceInfo } from "@/db/queries/faults-device-info";
import { maxDeviceInfoBytes } from "@/db/schema/fault-event/constants";
import { route } from "@/server/auth/guard";
import { readText } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";

export const dynamic = "force-dynamic";

/**
 * `POST /api/v1/fault-events/device-info?cluster=<slug>[&node=<server id or host IP>]`: one device-info ConfigMap
 * snapshot (`kubectl get cm mindx-dl-deviceinfo-<node> -n kube-system -o json`, its `data`, or the DeviceInfoCfg
 * JSON; on A3 its `SwitchInfoCfg` too). Faults that appeared open events, faults that cleared close them. Malformed
 * input: 422 `invalid_device_info`, details `{path, reason, params}` (lib/faults/errors.ts); nothing changes.
 */
export const POST = route("write", async ({ request, actor }) => {
  const params = new URL(request.url).searchParams;
  const cluster = params.get("cluster");
  if (!cluster) throw new ApiError(400, "invalid_request", "say which cluster: ?cluster=<slug or id>");
  const text = await readText(request, maxDeviceInfoBytes);
  if (text.trim() === "") throw new ApiError(400, "invalid_request", "the body is empty: post the ConfigMap's JSON");
  try {
    const result = await ingestDeviceInfo(appDatabase(), { cluster, node: params.get("node"), body: text }, actor);
    return NextResponse.json(result);
  } catch (error) {
    if (error instanceof DeviceInfoTargetError) {
      const { reason, params } = error.problem;
      throw new ApiError(error.code === "unknown_cluster" ? 404 : 422, error.code, error.message, { reason, params });
    }
    throw error;
  }
});
