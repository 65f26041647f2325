import { describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";

// fault_events.cluster_id is kept by statement-level triggers (migration 0007) instead of a foreign key: these are
// the key's guarantees.
const insertEvent = (clusterId: number, id: string) =>
  testDatabase().pool.query(
    `insert into fault_events (id, cluster_id, target_kind, target_key, series_key, kind, source, reported_level, level, rule, episode_id, began_at)
     values ($2, $1, 'cluster', 'cluster', 'cluster|kind:node-fault', 'node-fault', 'api', 'NotHandleFault', 'NotHandleFault', 'reported', $2, now())`,
    [clusterId, id],
  );

async function failure(work: Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await work;
  } catch (error) {
    return error as { code?: string; constraint?: string };
  }
  throw new Error("expected the statement to fail");
}

async function newCluster(slug: string): Promise<number> {
  const cluster = demoA2Cluster(1);
  cluster.slug = slug;
  await seedDemo(testDatabase().db, [cluster]);
  const { rows } = await testDatabase().pool.query<{ id: number }>("select id from clusters where slug = $1", [slug]);
  return rows[0]!.id;
}

describe("fault_events.cluster_id", () => {
  it("refuses events of a cluster that does not exist, as the foreign key did (23503), and writes none", async () => {
    const id = await newCluster("events-exist");
    expect(await failure(insertEvent(id + 1000, "nowhere"))).toMatchObject({ code: "23503", constraint: "fault_events_cluster_id_clusters_id_fk" });
    await insertEvent(id, "here");
    expect(await failure(testDatabase().pool.query("update fault_events set cluster_id = $1 where id = 'here'", [id + 1000]))).toMatchObject({ code: "23503" });
    const { rows } = await testDatabase().pool.query("select id, cluster_id from fault_events where id in ('nowhere', 'here')");
    expect(rows).toEqual([{ id: "here", cluster_id: id }]);
  });

  it("goes with its cluster: deleting a cluster deletes its events and no other's", async () => {
    const doomed = await newCluster("events-doomed");
    const kept = await newCluster("events-kept");
    await insertEvent(doomed, "doomed-1");
    await insertEvent(kept, "kept-1");
    await testDatabase().pool.query("delete from clusters where id = $1", [doomed]);
    const { rows } = await testDatabase().pool.query<{ id: string }>("select id from fault_events where id like 'doomed-%' or id like 'kept-%'");
    expect(rows.map((r) => r.id)).toEqual(["kept-1"]);
  });

  it("holds the cluster while events are being written: its deletion waits for their transaction", async () => {
    const id = await newCluster("events-held");
    const writer = await testDatabase().pool.connect();
    const deleter = await testDatabase().pool.connect();
    try {
      await writer.query("begin");
      await writer.query(
        `insert into fault_events (id, cluster_id, target_kind, target_key, series_key, kind, source, reported_level, level, rule, episode_id, began_at)
         values ('held-1', $1, 'cluster', 'cluster', 'cluster|kind:node-fault', 'node-fault', 'api', 'NotHandleFault', 'NotHandleFault', 'reported', 'held-1', now())`,
        [id],
      );
      await deleter.query("set lock_timeout = '300ms'");
      expect(await failure(deleter.query("delete from clusters where id = $1", [id]))).toMatchObject({ code: "55P03" });
      await writer.query("commit");
      await deleter.query("delete from clusters where id = $1", [id]);
      const { rows } = await testDatabase().pool.query("select id from fault_events where id = 'held-1'");
      expect(rows).toEqual([]);
    } finally {
      await writer.query("rollback").catch(() => {});
      writer.release();
      deleter.release();
    }
  });
});
