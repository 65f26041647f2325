import "server-only";
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

/** The `?cluster=` (slug or id) a fault endpoint is about; 400 without it. */
export function clusterParam(request: Request): string {
  const cluster = new URL(request.url).searchParams.get("cluster");
  if (!cluster) throw new ApiError(400, "invalid_request", "say which cluster: ?cluster=<slug or id>");
  return cluster;
}
