import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadClusterInventory } from "@/db/queries/topology";
import { writeRankTable } from "@/lib/rank-table";
import { a5TableFromInventory, isA5Inventory, rankTableFromInventory } from "@/lib/topology/export";
import { route } from "@/server/auth/guard";
import { etagFor, notModified, CACHE_CONTROL, type ClusterRouteContext } from "../../topology/shared";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/clusters/{id}/inventory/rank-table`: the cluster's rank table built from its inventory (canonical
 * form, ranks in inventory order; "2.0" for an Atlas 950 cluster), the reverse of importing one. Cached per inventory revision like the topology.
 */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id } = await context.params;
  const cluster = await getClusterOrThrow(appDatabase().db, id);
  const etag = etagFor(cluster, "rank-table", {});
  const headers = {
    etag,
    "cache-control": CACHE_CONTROL,
    "content-disposition": `attachment; filename="${cluster.slug}-hccl.json"`,
  };
  if (notModified(request, etag)) return new Response(null, { status: 304, headers });
  const inventory = await loadClusterInventory(appDatabase().db, cluster.id);
  const text = writeRankTable(isA5Inventory(inventory.servers) ? a5TableFromInventory(inventory.servers) : rankTableFromInventory({ mode: cluster.mode, ...inventory }));
  return new Response(text, { status: 200, headers: { ...headers, "content-type": "application/json" } });
});
