import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultHealthSnapshot } from "@/db/queries/faults";
import { faultLevelInfo } from "@/lib/faults/levels";
import { clusterParam } from "@/server/faults/http";
import { route } from "@/server/auth/guard";
import { readKey, sharedFaultJson } from "@/server/faults/read-cache";

export const dynamic = "force-dynamic";

/**
 * `GET /api/v1/fault-events/health?cluster=`: open faults per die (or server), worst level and its health tone. The
 * answer is shared between instances with the snapshot it read (server/faults/read-cache.ts), so its open faults are
 * read for it, not taken from the copy the topology view keeps in this process (an older snapshot).
 */
export const GET = route("read", async ({ request }) => {
  const param = clusterParam(request);
  return sharedFaultJson(request, param, readKey("health", request), async (handle) => {
    const cluster = await getClusterOrThrow(handle.db, param);
    const { version, faults } = await faultHealthSnapshot(handle.pool, cluster.id);
    return { cluster: cluster.slug, version, targets: faults.map((t) => ({ ...t, tone: faultLevelInfo[t.level].tone })) };
  });
});
