import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultHealthSnapshot } from "@/db/queries/faults";
import { faultLevelInfo } from "@/lib/faults/levels";
import { clusterParam } from "@/server/faults/http";
import { route } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** `GET /api/v1/fault-events/health?cluster=`: open faults per die (or server), worst level and its health tone. */
export const GET = route("read", async ({ request }) => {
  const cluster = await getClusterOrThrow(appDatabase().db, clusterParam(request));
  const { version, faults } = await faultHealthSnapshot(appDatabase().pool, cluster.id);
  const targets = faults.map((t) => ({ ...t, tone: faultLevelInfo[t.level].tone }));
  return NextResponse.json({ cluster: cluster.slug, version, targets });
});
