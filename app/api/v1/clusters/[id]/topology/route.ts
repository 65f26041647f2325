import { z } from "zod";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultHealthSnapshot } from "@/db/queries/faults";
import { withFaultHealth } from "@/lib/faults/health";
import { topologyLevels } from "@/lib/topology/model";
import { buildTopologyView } from "@/lib/topology/view";
import { route } from "@/server/auth/guard";
import { cachedJson, etagFor, indexOf, queryOf, type ClusterRouteContext } from "./shared";

export const dynamic = "force-dynamic";

const query = z
  .object({
    level: z.enum(topologyLevels).default("cluster"),
    id: z.string().min(1).max(200).optional(),
  })
  .refine((q) => q.level === "cluster" || q.id !== undefined, { message: "id is required for level superpod and server", path: ["id"] });

/**
 * `GET /api/v1/clusters/{id}/topology?level=cluster|superpod|server&id=...`: the nodes and links of one view, laid
 * out. `{id}` is the cluster's numeric id or slug; `id=` takes a super pod's or server's node id.
 */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id: clusterId } = await context.params;
  const q = query.parse(queryOf(request));
  const cluster = await getClusterOrThrow(appDatabase().db, clusterId);
  const id = q.level === "cluster" ? null : q.id!;
  // Live health from the open fault events (issue 7): part of the ETag, so a new fault is a new body.
  const health = await faultHealthSnapshot(appDatabase().pool, cluster.id);
  const etag = etagFor(cluster, "view", { level: q.level, id, faults: health.version });
  return cachedJson(request, etag, async () => {
    const view = buildTopologyView(await indexOf(cluster), q.level, id);
    return health.collected ? withFaultHealth(view, health.faults) : view;
  });
});
