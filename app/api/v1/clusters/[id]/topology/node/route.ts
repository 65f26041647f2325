import { z } from "zod";
import { appDatabase } from "@/db/client";
import { faultHealthSnapshot } from "@/db/queries/faults-timeline";
import { healthOf } from "@/lib/faults/health";
import { nodeDetails } from "@/lib/topology/details";
import { nodeKinds } from "@/lib/topology/model";
import { route } from "@/server/auth/guard";
import { cachedJson, clusterOr404, etagFor, indexOf, queryOf, type ClusterRouteContext } from "../shared";

export const dynamic = "force-dynamic";

const query = z.object({ kind: z.enum(nodeKinds), id: z.string().min(1).max(200) });

/** `GET /api/v1/clusters/{id}/topology/node?kind=superpod|server|npu|die&id=...`: the details panel's content. */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id: clusterId } = await context.params;
  const q = query.parse(queryOf(request));
  const cluster = await clusterOr404(clusterId);
  const health = await faultHealthSnapshot(appDatabase().pool, cluster.id);
  const etag = etagFor(cluster, "node", { ...q, faults: health.version });
  return cachedJson(request, etag, async () => {
    const details = nodeDetails(await indexOf(cluster), q.kind, q.id);
    return health.collected ? { ...details, node: { ...details.node, health: healthOf(details.node, health.faults) } } : details;
  });
});
