import { describe, expect, it, vi } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { seedDemo } from "../../seed";
import { systemActor } from "../audit";
import { getClusterOrThrow } from "../clusters";
import { replaceInventory } from "../inventory-replace";
import { podDieCounts } from "./pod-dies";

describe("podDieCounts", () => {
  it("counts each super pod's dies once per inventory revision, and again after the inventory changes", async () => {
    const { db, pool } = testDatabase();
    await seedDemo(db, [demoA3Cluster(2, 3)]);
    const cluster = await getClusterOrThrow(db, "atlas-a3-demo");
    const { rows } = await pool.query<{ super_pod_ref: number; dies: string }>(
      "select s.super_pod_ref, count(*) as dies from devices d join servers s on s.id = d.server_ref where s.cluster_id = $1 group by 1 order by 1",
      [cluster.id],
    );
    expect(rows).toHaveLength(2);
    const counted = rows.map((row) => ({ superPodRef: row.super_pod_ref, dies: Number(row.dies) }));
    const byRef = (pods: { superPodRef: number | null }[]) => [...pods].sort((a, b) => (a.superPodRef ?? -1) - (b.superPodRef ?? -1));
    expect(byRef(await podDieCounts(pool, cluster))).toEqual(counted);

    // Kept per revision: a die removed behind its back (no bump) is still counted until the revision moves.
    await pool.query("delete from devices where id = (select max(d.id) from devices d where d.cluster_id = $1)", [cluster.id]);
    expect(byRef(await podDieCounts(pool, cluster))).toEqual(counted);

    // A new inventory (a new revision): counted again, its 3 servers outside any pod.
    await replaceInventory(db, cluster.id, demoA2Cluster(3), cluster.inventoryRevision, systemActor, {});
    const replaced = await getClusterOrThrow(db, "atlas-a3-demo");
    expect(replaced.inventoryRevision).not.toBe(cluster.inventoryRevision);
    // A report's two periods ask at once: one count serves both.
    const query = vi.spyOn(pool, "query");
    const [current, previous] = await Promise.all([podDieCounts(pool, replaced), podDieCounts(pool, replaced)]);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect(current).toEqual([{ superPodRef: null, dies: 24 }]);
    expect(previous).toEqual(current);
  });
});
