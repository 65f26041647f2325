/**
 * A SuperCluster (one "2.0" table per SuperPoD) streamed into PostgreSQL by `rankscope cluster add --from DIR`
 * (insertClusterFromParts, InventoryWriter), at a moderate size: what is stored is exactly what the tables say,
 * counted and read back die by die, the topology index and its search find every die, and a bad table anywhere
 * leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";
import type { LinkSpec } from "@/lib/inventory/model";
import { inventoryFromRankTable } from "@/lib/topology/import";
import { searchTopology } from "@/lib/topology/search";
import { getClusterOrThrow } from "./clusters";
import { builtIndexCount, loadClusterInventory, topologyIndex } from "./topology";

beforeAll(() => {
  process.env.DATABASE_URL = testDatabase().url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

const PODS = 3;
const RACKS = 5;
const NPUS = PODS * RACKS * 64;

async function superCluster(): Promise<Record<string, string>> {
  const generated = await rankscope(["generate", "--version", "2.0", "--super-pods", String(PODS), "--racks", String(RACKS), "--output", "sc"]);
  expect(generated.status, generated.stderr).toBe(0);
  expect([...generated.written.keys()].sort()).toEqual(["sc/superpod0.json", "sc/superpod1.json", "sc/superpod2.json"]);
  return Object.fromEntries(generated.written);
}

const linkKey = (link: LinkSpec) => [link.kind, `${link.source.serverId}/${link.source.deviceId}`, `${link.target.serverId}/${link.target.deviceId}`].sort().join(" ");

describe("a SuperCluster streamed in, one table per super pod", () => {
  let files: Record<string, string> = {};

  it("is imported whole from the directory, each row counted", async () => {
    files = await superCluster();
    const added = await rankscope(["cluster", "add", "sc-moderate", "--from", "sc"], files);
    expect(added).toMatchObject({ status: 0, stdout: `created cluster sc-moderate (sc-moderate): ${PODS} super pods, ${PODS * RACKS} servers, ${NPUS} dies\n` });
    const { rows } = await testDatabase().pool.query(`
      select (select count(*)::int from super_pods p where p.cluster_id = c.id) as pods,
        (select count(*)::int from servers s where s.cluster_id = c.id) as servers,
        (select count(*)::int from npus n join servers s on s.id = n.server_ref where s.cluster_id = c.id) as npus,
        (select count(*)::int from devices d where d.cluster_id = c.id) as dies,
        (select count(*)::int from device_net_addresses a where a.cluster_id = c.id) as addresses,
        (select count(distinct lower(a.addr))::int from device_net_addresses a where a.cluster_id = c.id) as eids,
        (select jsonb_object_agg(kind, n) from (select kind, count(*)::int as n from links l where l.cluster_id = c.id group by kind) k) as links,
        (select array_agg(s.position order by s.position) = array(select generate_series(0, ${PODS * RACKS - 1})) from servers s where s.cluster_id = c.id) as positions
      from clusters c where c.slug = 'sc-moderate'`);
    // Per NPU 2 levels × 2 dies' EIDs, unique across the pods' tables; a ring of 64 per rack at level 0, 64 paths
    // between neighbouring racks of a pod at level 1.
    expect(rows).toEqual([
      {
        pods: PODS,
        servers: PODS * RACKS,
        npus: NPUS,
        dies: NPUS,
        addresses: NPUS * 4,
        eids: NPUS * 4,
        links: { "net-layer-0": NPUS, "net-layer-1": PODS * (RACKS - 1) * 64 },
        positions: true,
      },
    ]);
  });

  it("reads back exactly as the tables say, die by die with every network address, and with the same links", async () => {
    const { db } = testDatabase();
    const cluster = await getClusterOrThrow(db, "sc-moderate");
    const stored = await loadClusterInventory(db, cluster.id);
    const tables = Object.keys(files).sort().map((path) => inventoryFromRankTable(files[path]!).inventory!);
    expect(stored.superPodIds).toEqual(tables.flatMap((table) => table.superPodIds));
    expect(stored.servers).toEqual(tables.flatMap((table) => table.servers));
    expect(stored.links.map(linkKey).sort()).toEqual(tables.flatMap((table) => table.links).map(linkKey).sort());
  });

  it("is indexed once per revision and every die is found by its rank", async () => {
    const { db } = testDatabase();
    const cluster = await getClusterOrThrow(db, "sc-moderate");
    const before = builtIndexCount();
    const [index] = await Promise.all([topologyIndex(db, cluster), topologyIndex(db, cluster), topologyIndex(db, cluster)]);
    expect(builtIndexCount() - before).toBe(1);
    expect(index.dieByRank).toHaveLength(NPUS);
    for (let rank = 0; rank < NPUS; rank += 37) {
      const die = index.dieByRank[rank]!;
      expect(searchTopology(index, String(rank), "rank").hits.map((hit) => hit.id)).toEqual([die.id]);
      expect(searchTopology(index, die.server.id, "serverId").hits[0]).toMatchObject({ kind: "server", id: die.server.id, superPodId: die.server.pod!.id });
    }
  });

  it("writes nothing when a table in the middle has errors, and names it", async () => {
    const broken = { ...files, "sc/superpod1.json": files["sc/superpod1.json"]!.replace('"rank_id": 7,', '"rank_id": 3,') };
    const refused = await rankscope(["cluster", "add", "sc-broken", "--from", "sc"], broken);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^rankscope cluster: sc\/superpod1\.json cannot become an inventory: \d+ error finding\(s\)\n {2}RT106/);
    expect((await testDatabase().pool.query("select 1 from clusters where slug = 'sc-broken'")).rowCount).toBe(0);
  });

  it("needs a directory to write a SuperCluster's tables to", async () => {
    const refused = await rankscope(["generate", "--version", "2.0", "--super-pods", "2"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("--output DIR is required");
  });
});
