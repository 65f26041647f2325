import "server-only";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadClusterInventory } from "@/db/queries/topology";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { diffInventory, type Inventory, type InventoryDiff } from "@/lib/topology/import";
import type { Issue } from "@/lib/rank-table";
import { rankTableBody } from "@/server/rank-table-worker";
import type { RankTableBodyFields, RankTableBodyKind } from "@/server/workers/rank-table-body";

export interface Preview {
  cluster: ClusterHeader;
  /** False when the table has errors: nothing can be written from it. */
  valid: boolean;
  issues: Issue[];
  counts: { superPods: number; servers: number; dies: number; links: number } | null;
  diff: InventoryDiff | null;
  next: Inventory | null;
}

/**
 * The cluster (404 before the body is read), then the table the body carries, read off the request thread when it is
 * large (server/rank-table-worker.ts), as an inventory compared with the cluster's; with the body's other fields.
 */
export async function previewImport<K extends Extract<RankTableBodyKind, "import" | "preview">>(
  idOrSlug: string,
  request: Request,
  kind: K,
): Promise<{ preview: Preview; fields: RankTableBodyFields<K> }> {
  const { db } = appDatabase();
  const cluster = await getClusterOrThrow(db, idOrSlug);
  const { fields, work } = await rankTableBody(request, kind);
  const { inventory: next, issues } = work as { inventory: Inventory | null; issues: Issue[] };
  if (!next) return { fields, preview: { cluster, valid: false, issues, counts: null, diff: null, next: null } };
  const current = { mode: cluster.mode, ...(await loadClusterInventory(db, cluster.id)) };
  const preview: Preview = {
    cluster,
    valid: true,
    issues,
    counts: {
      superPods: next.superPodIds.length,
      servers: next.servers.length,
      dies: next.servers.reduce((n, s) => n + s.npus.reduce((m, npu) => m + npu.dies.length, 0), 0),
      links: next.links.length,
    },
    diff: diffInventory(current, next),
    next,
  };
  return { fields, preview };
}

/** At most this many findings go back to the browser; the rank-table page shows them all. */
export const MAX_ISSUES = 200;
