import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { seedDemo } from "../seed";
import { clusters, devices, links, npus, servers, superPods } from "../schema";
import { insertCluster, listClusterSummaries } from "./inventory";

async function count(table: string): Promise<number> {
  const { rows } = await testDatabase().pool.query<{ n: number }>(`select count(*)::int as n from ${table}`);
  return rows[0]!.n;
}

/** The Postgres error a statement fails with (drizzle wraps it as `cause`). */
async function failure(promise: Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { cause?: { code?: string; constraint?: string }; code?: string; constraint?: string };
    return e.cause ?? e;
  }
  throw new Error("expected the statement to fail");
}

describe("demo seed", () => {
  it("creates both demo clusters with their counts and does nothing the second time", async () => {
    const { db } = testDatabase();
    expect(await seedDemo(db)).toEqual({ created: ["atlas-a3-demo", "atlas-a2-demo"], skipped: [] });
    const before = { devices: await count("devices"), links: await count("links") };
    expect(before.devices).toBe(1536 + 32);

    expect(await seedDemo(db)).toEqual({ created: [], skipped: ["atlas-a3-demo", "atlas-a2-demo"] });
    expect({ devices: await count("devices"), links: await count("links") }).toEqual(before);

    const summaries = await listClusterSummaries(db);
    expect(summaries.map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        slug: "atlas-a3-demo",
        name: "Atlas 900 A3 SuperPoD (demo)",
        mode: "super-pod",
        superPods: 2,
        servers: 96,
        npus: 768,
        devices: 1536,
        serversByModel: { "Atlas 800T A3": 96 },
      },
      {
        slug: "atlas-a2-demo",
        name: "Atlas 800T A2 training (demo)",
        mode: "ai-server",
        superPods: 0,
        servers: 4,
        npus: 32,
        devices: 32,
        serversByModel: { "Atlas 800T A2": 4 },
      },
    ]);
  });
});

describe("inventory constraints", () => {
  it("rejects a device IP used twice in one cluster, but allows it in another cluster", async () => {
    const { db } = testDatabase();
    const a2 = demoA2Cluster(2);
    a2.slug = "dup-ip";
    a2.servers[1]!.npus[3]!.dies[0]!.deviceIp = a2.servers[0]!.npus[0]!.dies[0]!.deviceIp;
    expect(await failure(insertCluster(db, a2))).toMatchObject({ code: "23505", constraint: "devices_cluster_device_ip" });
    expect(await count("clusters where slug = 'dup-ip'")).toBe(0);

    const first = demoA2Cluster(1);
    first.slug = "first";
    const second = demoA2Cluster(1);
    second.slug = "second";
    await insertCluster(db, first);
    await expect(insertCluster(db, second)).resolves.toBeTypeOf("number");
  });

  it("rejects a server id used twice in one cluster and a device_id used twice in one server", async () => {
    const { db } = testDatabase();
    const twinServers = demoA2Cluster(2);
    twinServers.slug = "twin-servers";
    twinServers.servers[1]!.serverId = twinServers.servers[0]!.serverId;
    expect(await failure(insertCluster(db, twinServers))).toMatchObject({ constraint: "servers_cluster_server_id" });

    const twinDies = demoA2Cluster(1);
    twinDies.slug = "twin-dies";
    twinDies.servers[0]!.npus[1]!.dies[0]!.deviceId = 0;
    expect(await failure(insertCluster(db, twinDies))).toMatchObject({ constraint: "devices_server_device_id" });
  });

  it("cannot put a server into another cluster's super pod, nor a die onto another server's NPU", async () => {
    const { db } = testDatabase();
    const a3 = demoA3Cluster(1, 2);
    a3.slug = "one-pod";
    const a3Id = await insertCluster(db, a3);
    const a2 = demoA2Cluster(1);
    a2.slug = "lonely-a2";
    const a2Id = await insertCluster(db, a2);
    const [pod] = await db.select().from(superPods).where(eq(superPods.clusterId, a3Id));
    const [a2Server] = await db.select().from(servers).where(eq(servers.clusterId, a2Id));
    expect(
      await failure(db.update(servers).set({ superPodRef: pod!.id }).where(eq(servers.id, a2Server!.id))),
    ).toMatchObject({ code: "23503", constraint: "servers_super_pod_same_cluster" });

    const [a3Npu] = await db.select().from(npus).innerJoin(servers, eq(servers.id, npus.serverRef)).where(eq(servers.clusterId, a3Id)).limit(1);
    const [a2Die] = await db.select().from(devices).where(eq(devices.clusterId, a2Id)).limit(1);
    expect(
      await failure(db.update(devices).set({ npuRef: a3Npu!.npus.id }).where(eq(devices.id, a2Die!.id))),
    ).toMatchObject({ code: "23503", constraint: "devices_npu_same_server" });
  });

  it("deletes a cluster's whole tree with it and leaves no orphans", async () => {
    const { db } = testDatabase();
    const a3 = demoA3Cluster(2, 3);
    a3.slug = "doomed";
    const keep = demoA2Cluster(1);
    keep.slug = "kept";
    const doomedId = await insertCluster(db, a3);
    await insertCluster(db, keep);
    const before = await count("devices");
    await db.delete(clusters).where(eq(clusters.id, doomedId));
    expect(await count("devices")).toBe(before - 2 * 3 * 16);
    for (const [table, parent] of [
      ["super_pods", "cluster_id not in (select id from clusters)"],
      ["servers", "cluster_id not in (select id from clusters)"],
      ["npus", "server_ref not in (select id from servers)"],
      ["devices", "npu_ref not in (select id from npus)"],
      ["links", "source_device not in (select id from devices) or target_device not in (select id from devices)"],
    ] as const) {
      expect(await count(`${table} where ${parent}`), table).toBe(0);
    }
    expect(await count("devices d join clusters c on c.id = d.cluster_id where c.slug = 'kept'")).toBe(8);
  });

  it("deleting one server removes its NPUs, dies and every link that touches them", async () => {
    const { db } = testDatabase();
    const a3 = demoA3Cluster(2, 2);
    a3.slug = "link-cascade";
    const clusterId = await insertCluster(db, a3);
    const [victim] = await db
      .select()
      .from(servers)
      .where(sql`${servers.clusterId} = ${clusterId} and ${servers.serverId} = 'sp0-node01'`);
    const linksBefore = await db.$count(links, eq(links.clusterId, clusterId));
    await db.delete(servers).where(eq(servers.id, victim!.id));
    // sp0-node01 had 8 backup rails, 16 HCCS links to sp0-node00 (a 2-server ring is a chain) and 16 RoCE links.
    expect(await db.$count(links, eq(links.clusterId, clusterId))).toBe(linksBefore - 8 - 16 - 16);
    expect(await db.$count(npus, sql`${npus.serverRef} = ${victim!.id}`)).toBe(0);
  });
});

describe("cluster summaries", () => {
  it("read the counts stored with the inventory snapshot of the current revision, and count the rows otherwise", async () => {
    const { db, pool } = testDatabase();
    const spec = { ...demoA2Cluster(3), slug: "summary-counts", name: "Summary counts" };
    const id = await insertCluster(db, spec);
    const { rows } = await pool.query<{ counts: unknown }>("select counts from inventory_snapshots where cluster_id = $1", [id]);
    expect(rows[0]!.counts).toEqual({ superPods: 0, servers: 3, npus: 24, devices: 24, serversByModel: { "Atlas 800T A2": 3 } });

    // Stored counts are what the summary says (no row is counted): a changed value shows.
    await pool.query("update inventory_snapshots set counts = json_build_object('superPods', 0, 'servers', 3, 'npus', 24, 'devices', 999, 'serversByModel', '{}'::json) where cluster_id = $1", [id]);
    const summaryOf = async () => (await listClusterSummaries(db)).find((summary) => summary.id === id)!;
    expect((await summaryOf()).devices).toBe(999);

    // A newer revision than the snapshot's: the rows are counted.
    await db.update(clusters).set({ inventoryRevision: sql`${clusters.inventoryRevision} + 1` }).where(eq(clusters.id, id));
    expect(await summaryOf()).toMatchObject({ servers: 3, npus: 24, devices: 24, serversByModel: { "Atlas 800T A2": 3 } });
  });
});
