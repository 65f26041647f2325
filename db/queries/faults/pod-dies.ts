import type pg from "pg";
import { SharedAnswers } from "@/lib/shared-answers";
import type { ClusterHeader } from "@/lib/topology/inventory-index";

/** How many dies a super pod of a cluster holds (`superPodRef` null: its servers outside any pod). */
export interface PodDies {
  superPodRef: number | null;
  dies: number;
}

/**
 * By cluster id, under the inventory revision of the caller's cluster header: they change only with the inventory
 * (every change bumps `inventory_revision`), and counting a SuperCluster's 524,288 dies by pod took 96 ms of every
 * statistics request, twice in a report with its previous period (issue 21: the Trends tab drawn in 2.1 s). The
 * header is read before the counts, so they are never older than the revision they are kept under; and a report's
 * two periods, asking at once, share one count.
 */
const kept = new SharedAnswers<PodDies[]>({ maxEntries: 64 });

/** Each super pod's die count for the statistics' availability, counted once per inventory revision. */
export function podDieCounts(pool: pg.Pool, cluster: ClusterHeader): Promise<PodDies[]> {
  return kept.get(String(cluster.id), () => String(cluster.inventoryRevision), async () => {
    const { rows } = await pool.query<{ super_pod_ref: number | null; dies: string }>(
      "select s.super_pod_ref, count(d.id) as dies from servers s join devices d on d.server_ref = s.id where s.cluster_id = $1 group by 1",
      [cluster.id],
    );
    const pods = rows.map((row) => ({ superPodRef: row.super_pod_ref, dies: Number(row.dies) }));
    return { value: pods, size: pods.length, maxAgeMs: Infinity };
  });
}
