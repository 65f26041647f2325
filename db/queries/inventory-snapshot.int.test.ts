/**
 * The inventory snapshot stored with each inventory revision (./inventory-snapshot.ts): the index a fresh server
 * process builds from it equals the one built from the rows, for an A3 cluster (two dies per NPU, IPs and ports),
 * an A2 one and a "2.0" SuperCluster streamed in per super pod; and it is keyed by revision, so a change the
 * snapshot does not know of is read from the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { buildTopologyIndex } from "@/lib/topology/inventory-index";
import { getClusterOrThrow } from "./clusters";
import { insertCluster } from "./inventory";
import { snapshotOfInventory } from "@/lib/topology/inventory-snapshot";
import { loadInventorySnapshot, loadSnapshotColumns } from "./inventory-snapshot";
import { replaceInventory } from "./inventory-replace";
import { loadClusterInventory } from "./topology";

beforeAll(() => {
  process.env.DATABASE_URL = testDatabase().url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

/** The index from the stored snapshot and the one from the rows, of the cluster's current revision. */
async function bothIndexes(slug: string) {
  const { db } = testDatabase();
  const cluster = await getClusterOrThrow(db, slug);
  const stored = await loadInventorySnapshot(db, cluster.id, cluster.inventoryRevision);
  const rows = await loadClusterInventory(db, cluster.id, { netLevels: false });
  return { cluster, stored, rows, fromStored: stored && buildTopologyIndex(cluster, stored), fromRows: buildTopologyIndex(cluster, rows) };
}

describe("the inventory snapshot", () => {
  it("gives an A3 and an A2 cluster's index exactly as their rows do", async () => {
    const { db } = testDatabase();
    const a3 = { ...demoA3Cluster(2, 4), slug: "snap-a3" };
    // A die with every optional field empty, and one with a backup address: nulls and values both survive.
    a3.servers[0]!.npus[0]!.dies[0]!.backupDeviceIp = null;
    a3.servers[0]!.npus[0]!.dies[0]!.hostPort = 16666;
    await insertCluster(db, a3);
    await insertCluster(db, { ...demoA2Cluster(3), slug: "snap-a2" });
    for (const slug of ["snap-a3", "snap-a2"]) {
      const { cluster, stored, rows, fromStored, fromRows } = await bothIndexes(slug);
      // Stored with its link ends as differences (format 2).
      expect((await loadSnapshotColumns(db, cluster.id, cluster.inventoryRevision))!.format).toBe(2);
      expect(stored).not.toBeNull();
      expect(stored).toEqual(rows);
      expect(fromStored).toEqual(fromRows);
      expect(fromRows.dieByRank.length).toBeGreaterThan(0);
      expect(fromRows.dieLinks.size).toBeGreaterThan(0);
    }
  });

  it("still reads a snapshot stored before, with its link ends as places (format 1)", async () => {
    const { db, pool } = testDatabase();
    const cluster = await getClusterOrThrow(db, "snap-a3");
    const rows = await loadClusterInventory(db, cluster.id, { netLevels: false });
    await pool.query("update inventory_snapshots set body = $2 where cluster_id = $1", [cluster.id, JSON.stringify(snapshotOfInventory(rows))]);
    expect((await loadSnapshotColumns(db, cluster.id, cluster.inventoryRevision))!.format).toBe(1);
    const { stored, fromStored, fromRows } = await bothIndexes("snap-a3");
    expect(stored).toEqual(rows);
    expect(fromStored).toEqual(fromRows);
  });

  it("gives a SuperCluster streamed in per super pod the index its rows give", async () => {
    const generated = await rankscope(["generate", "--version", "2.0", "--super-pods", "2", "--racks", "3", "--output", "sc"]);
    expect(generated.status, generated.stderr).toBe(0);
    const added = await rankscope(["cluster", "add", "snap-sc", "--from", "sc"], Object.fromEntries(generated.written));
    expect(added.status, added.stderr).toBe(0);
    const { stored, rows, fromStored, fromRows } = await bothIndexes("snap-sc");
    expect(stored).toEqual(rows);
    expect(fromStored).toEqual(fromRows);
    expect(fromRows.dieByRank).toHaveLength(2 * 3 * 64);
    expect(fromRows.pods.map((pod) => pod.dies)).toEqual([3 * 64, 3 * 64]);
  });

  it("is taken again when the inventory is replaced, and a revision it does not know is not answered from it", async () => {
    const { db, pool } = testDatabase();
    const before = await getClusterOrThrow(db, "snap-a2");
    const next = { ...demoA2Cluster(2) };
    const revision = await replaceInventory(db, before.id, next, before.inventoryRevision, { type: "system", name: "test" }, {});
    expect(revision).toBe(before.inventoryRevision + 1);
    const { stored, rows } = await bothIndexes("snap-a2");
    expect(stored).toEqual(rows);
    expect(stored!.servers).toHaveLength(2);
    expect(await loadInventorySnapshot(db, before.id, before.inventoryRevision)).toBeNull();

    // Another instance changes the rows and bumps the revision without a snapshot: nothing stale is served.
    await pool.query("update clusters set inventory_revision = inventory_revision + 1 where id = $1", [before.id]);
    expect(await loadInventorySnapshot(db, before.id, revision + 1)).toBeNull();
  });
});
