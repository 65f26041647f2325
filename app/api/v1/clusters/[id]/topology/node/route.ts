import { z } from "zod";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadNodeDetails } from "@/db/queries/node-details";
import { nodeKinds } from "@/lib/topology/model";
import { route } from "@/server/auth/guard";
import { cachedJson, etagFor, queryOf, type ClusterRouteContext } from "../shared";
import { readFor, withReadHeaders } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

const query = z.object({ kind: z.enum(nodeKinds), id: z.string().min(1).max(200) });

/** `GET /api/v1/clusters/{id}/topology/node?kind=superpod|server|npu|die&id=...`: the details panel's content. */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id: clusterId } = await context.params;
  const q = query.parse(queryOf(request));
  const { value, read } = await readFor(request, async (handle) => {
    const cluster = await getClusterOrThrow(handle.db, clusterId);
    const { details, version } = await loadNodeDetails(handle, cluster, q.kind, q.id);
    return cachedJson(request, etagFor(cluster, "node", { ...q, content: version }), () => details);
  });
  return withReadHeaders(value, read);
});
