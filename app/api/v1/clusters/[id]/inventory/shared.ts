import "server-only";
import { z } from "zod";
import { appDatabase } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadClusterInventory } from "@/db/queries/topology";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { diffInventory, type Inventory, type InventoryDiff } from "@/lib/topology/import";
import type { Issue } from "@/lib/rank-table";
import { rankTableInventory } from "@/server/rank-table-worker";

/** Rank tables of 16,384 ranks are about 4 MB of canonical JSON; leave room for comments and indentation. */
export const MAX_TABLE_CHARS = 32 * 1024 * 1024;

export const tableBody = z.object({ text: z.string().min(1).max(MAX_TABLE_CHARS) });

export interface Preview {
  cluster: ClusterHeader;
  /** False when the table has errors: nothing can be written from it. */
  valid: boolean;
  issues: Issue[];
  counts: { superPods: number; servers: number; dies: number; links: number } | null;
  diff: InventoryDiff | null;
  next: Inventory | null;
}

/** The table is read off the request thread when it is large (server/rank-table-worker.ts). */
export async function previewImport(idOrSlug: string, text: string): Promise<Preview> {
  const { db } = appDatabase();
  const cluster = await getClusterOrThrow(db, idOrSlug);
  const { inventory: next, issues } = await rankTableInventory(text);
  if (!next) return { cluster, valid: false, issues, counts: null, diff: null, next: null };
  const current = { mode: cluster.mode, ...(await loadClusterInventory(db, cluster.id)) };
  return {
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
}

/** At most this many findings go back to the browser; the rank-table page shows them all. */
export const MAX_ISSUES = 200;
