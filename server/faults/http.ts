import "server-only";
import { findCluster, type ClusterRef } from "@/db/queries/faults";
import { appDatabase } from "@/db/client";
import { ApiError } from "@/server/http/errors";

/** Query parameters as an object; repeated or comma-separated list parameters (`kind`, `level`) become arrays. */
export function queryObject(request: Request, lists: string[] = []): Record<string, unknown> {
  const params = new URL(request.url).searchParams;
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    if (lists.includes(key)) out[key] = params.getAll(key).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
    else {
      const value = params.get(key)!;
      // Times come as ISO 8601 or epoch ms; a bare number is ms.
      out[key] = (key === "from" || key === "to") && /^\d+$/.test(value) ? Number(value) : value;
    }
  }
  return out;
}

export async function clusterOr404(slugOrId: string | null | undefined): Promise<ClusterRef> {
  if (!slugOrId) throw new ApiError(400, "invalid_request", "say which cluster: ?cluster=<slug or id>");
  const cluster = await findCluster(appDatabase().pool, slugOrId);
  if (!cluster) throw new ApiError(404, "not_found", `no cluster ${slugOrId}`);
  return cluster;
}
