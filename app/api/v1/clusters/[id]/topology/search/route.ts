import { z } from "zod";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { searchFields } from "@/lib/topology/model";
import { searchTopology } from "@/lib/topology/search";
import { route } from "@/server/auth/guard";
import { cachedJson, etagFor, queryOf, type ClusterRouteContext } from "../shared";
import { readFor, withReadHeaders } from "@/server/http/read-routing";
import { topologyIndex } from "@/db/queries/topology";

export const dynamic = "force-dynamic";

const query = z.object({
  q: z.string().max(200),
  field: z.enum(searchFields).default("any"),
});

/** `GET /api/v1/clusters/{id}/topology/search?q=...&field=any|serverId|hostIp|deviceIp|superDeviceId|rank`. */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id: clusterId } = await context.params;
  const q = query.parse(queryOf(request));
  const { value, read } = await readFor(request, async ({ db }) => {
    const cluster = await getClusterOrThrow(db, clusterId);
    const etag = etagFor(cluster, "search", { q: q.q.trim().toLowerCase(), field: q.field });
    return cachedJson(request, etag, async () => searchTopology(await topologyIndex(db, cluster), q.q, q.field));
  });
  return withReadHeaders(value, read);
});
