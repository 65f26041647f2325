import { z } from "zod";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadTopologyView } from "@/db/queries/topology-view";
import { topologyLevels } from "@/lib/topology/model";
import { route } from "@/server/auth/guard";
import { cachedJson, etagFor, queryOf, type ClusterRouteContext } from "./shared";
import { readFor, withReadHeaders } from "@/server/http/read-routing";

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
  const id = q.level === "cluster" ? null : q.id!;
  const { value, read } = await readFor(request, async (handle) => {
    const cluster = await getClusterOrThrow(handle.db, clusterId);
    const { faultsVersion, build } = await loadTopologyView(handle, cluster, q.level, id);
    return cachedJson(request, etagFor(cluster, "view", { level: q.level, id, faults: faultsVersion }), build);
  });
  return withReadHeaders(value, read);
});
