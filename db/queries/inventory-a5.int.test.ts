/**
 * A "2.0" (Atlas 950) rank table as a cluster of the inventory, against PostgreSQL: `rankscope cluster add` writes
 * a rank per NPU with its network levels and planes, the inventory reads back as the table says it, the topology
 * draws super pod → servers → NPUs with a link kind per network level, and the database keeps EIDs unique.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";
import { diffInventory, inventoryFromRankTable } from "@/lib/topology/import";
import { getClusterOrThrow } from "./clusters";
import { loadClusterInventory } from "./topology";
import { loadTopologyView } from "./topology-view";

beforeAll(() => {
  process.env.DATABASE_URL = testDatabase().url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

/** Postgres' error for a statement (the pg driver's error carries code and constraint). */
async function failure(promise: Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; constraint?: string };
  }
  throw new Error("expected the statement to fail");
}

describe("a 2.0 (A5) table in the inventory", () => {
  let text = "";

  it("becomes a cluster with rankscope cluster add: servers of model Atlas 950, a die per NPU, its levels and planes", async () => {
    const generated = await rankscope(["generate", "--version", "2.0", "--racks", "2"]);
    expect(generated.status, generated.stderr).toBe(0);
    text = generated.stdout;
    const added = await rankscope(["cluster", "add", "a5-pod", "--from", "a5.json"], { "a5.json": text });
    expect(added).toMatchObject({ status: 0, stdout: "created cluster a5-pod (a5-pod): 1 super pods, 2 servers, 128 dies\n" });

    const { pool } = testDatabase();
    const { rows } = await pool.query(`
      select c.mode, (select array_agg(distinct s.model) from servers s where s.cluster_id = c.id) as models,
        (select count(*)::int from npus n join servers s on s.id = n.server_ref where s.cluster_id = c.id) as npus,
        (select max(n.npu_index) from npus n join servers s on s.id = n.server_ref where s.cluster_id = c.id) as max_npu,
        (select count(*)::int from device_net_addresses a where a.cluster_id = c.id) as addresses,
        (select array_agg(distinct a.plane_id order by a.plane_id) from device_net_addresses a where a.cluster_id = c.id) as planes,
        (select jsonb_object_agg(kind, n) from (select kind, count(*)::int as n from links l where l.cluster_id = c.id group by kind) k) as links
      from clusters c where c.slug = 'a5-pod'`);
    // 128 NPUs × 2 levels × 2 dies' addresses; a ring of 64 per rack at level 0, 64 rack-to-rack paths at level 1.
    expect(rows).toEqual([{ mode: "super-pod", models: ["Atlas 950"], npus: 128, max_npu: 63, addresses: 512, planes: ["plane0", "plane1"], links: { "net-layer-0": 128, "net-layer-1": 64 } }]);
  });

  it("reads back as the table says it: nothing to change when the same table is imported again", async () => {
    const { db } = testDatabase();
    const cluster = await getClusterOrThrow(db, "a5-pod");
    const stored = { mode: cluster.mode, ...(await loadClusterInventory(db, cluster.id)) };
    const fromTable = inventoryFromRankTable(text).inventory!;
    expect(stored.servers).toEqual(fromTable.servers);
    expect(stored.servers[1]!.npus[5]!.dies[0]!.netLevels![1]).toMatchObject({ netLayer: 1, netInstanceId: "superpod0", netType: "CLOS" });
    expect(diffInventory(stored, fromTable).unchanged).toBe(true);
  });

  it("is drawn as super pod → servers → NPUs, with links per network level", async () => {
    const handle = testDatabase();
    const cluster = await getClusterOrThrow(handle.db, "a5-pod");
    const top = await (await loadTopologyView(handle, cluster, "cluster", null)).build();
    expect(top.counts).toEqual({ superPods: 1, servers: 2, npus: 128, dies: 128 });
    const superPods = top.nodes.filter((node) => node.kind === "superpod");
    expect(superPods.map((node) => node.label)).toEqual(["Super pod superpod0"]);
    expect(top.nodes.filter((node) => node.kind === "server").map((node) => [node.label, node.parent])).toEqual([
      ["superpod0-rack0", superPods[0]!.id],
      ["superpod0-rack1", superPods[0]!.id],
    ]);
    const pod = await (await loadTopologyView(handle, cluster, "superpod", superPods[0]!.id)).build();
    expect(pod.nodes.filter((node) => node.kind === "server").map((node) => [node.serverId, node.model])).toEqual([
      ["superpod0-rack0", "Atlas 950"],
      ["superpod0-rack1", "Atlas 950"],
    ]);
    // Between the servers of the super pod: level 1; inside a server (its own view): level 0.
    expect(pod.links.map((link) => [link.kind, link.count])).toEqual([["net-layer-1", 64]]);
    const server = await (await loadTopologyView(handle, cluster, "server", "superpod0-rack0")).build();
    expect(server.nodes.filter((node) => node.kind === "npu")).toHaveLength(64);
    expect(server.links.filter((link) => link.kind === "net-layer-0")).toHaveLength(64);
    expect(server.external).toEqual([expect.objectContaining({ kind: "net-layer-1", count: 64 })]);
  });

  it("keeps an EID unique in a cluster (any case) but lets host NICs share an address", async () => {
    const { pool } = testDatabase();
    const { rows } = await pool.query<{ cluster_id: number; device_ref: number; addr: string }>(
      "select cluster_id, device_ref, addr from device_net_addresses where addr_type = 'EID' order by id limit 1",
    );
    const row = rows[0]!;
    const insert = (type: string, addr: string) =>
      pool.query(
        `insert into device_net_addresses (cluster_id, device_ref, net_layer, net_instance_id, net_type, position, addr_type, addr, ports)
         values ($1, $2, 2, 'az0', 'CLOS', 0, $3, $4, '{d2h}')`,
        [row.cluster_id, row.device_ref, type, addr],
      );
    expect(await failure(insert("EID", row.addr.toUpperCase()))).toMatchObject({ code: "23505", constraint: "device_net_addresses_cluster_eid" });
    await insert("IPV4", "10.1.0.1");
    await insert("IPV4", "10.1.0.1");
    expect(await failure(insert("IPV4", ""))).toMatchObject({ code: "23514", constraint: "device_net_addresses_addr_length" });
  });
});
