import { z } from "zod";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { searchFields } from "@/lib/topology/model";
import { searchTopology } from "@/lib/topology/search";
import { route } from "@/server/auth/guard";
import { cachedJson, etagFor, indexOf, queryOf, type ClusterRouteContext } from "../shared";

export const dynamic = "force-dynamic";

const query = z.object({
  q: z.string().max(200),
  field: z.enum(searchFields).default("any"),
});

/** `GET /api/v1/clusters/{id}/topology/search?q=...&field=any|serverId|hostIp|deviceIp|superDeviceId|rank`. */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id: clusterId } = await context.params;
  const q = query.parse(queryOf(request));
  const cluster = await getClusterOrThrow(appDatabase().db, clusterId);
  const etag = etagFor(cluster, "search", { q: q.q.trim().toLowerCase(), field: q.field });
  return cachedJson(request, etag, async () => searchTopology(await indexOf(cluster), q.q, q.field));
});
