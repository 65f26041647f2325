import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultHealthSnapshot } from "@/db/queries/faults";
import { faultLevelInfo } from "@/lib/faults/levels";
import { clusterParam } from "@/server/faults/http";
import { route } from "@/server/auth/guard";
import { jsonRead } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

/** `GET /api/v1/fault-events/health?cluster=`: open faults per die (or server), worst level and its health tone. */
export const GET = route("read", async ({ request }) => {
  return jsonRead(request, async ({ db, pool }) => {
    const cluster = await getClusterOrThrow(db, clusterParam(request));
    const { version, faults } = await faultHealthSnapshot(pool, cluster.id);
    return { cluster: cluster.slug, version, targets: faults.map((t) => ({ ...t, tone: faultLevelInfo[t.level].tone })) };
  });
});
