/**
 * A 1.x rank table imported as it streams (lib/topology/import-stream.ts: checked entry by entry, then written a
 * batch of servers at a time with the links last) stores exactly the rows the whole-table import stores, row for
 * row with the same relative ids and order, in PostgreSQL; `rankscope cluster add` takes that path and refuses a
 * broken table with the whole-table findings, writing nothing.
 */
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFromTemplate, writeRankTable, type JsonObject, type JsonValue } from "@/lib/rank-table";
import { inventoryFromRankTable } from "@/lib/topology/import";
import { checkStreamedTable, streamedInventoryParts } from "@/lib/topology/import-stream";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";
import { insertClusterFromParts } from "./inventory";

beforeAll(() => {
  process.env.DATABASE_URL = testDatabase().url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

/** Small pieces and parts: a few dozen parts for these tables, links resolved across them. */
const small = { chars: 4096, servers: 5, links: 200 };

/** Every inventory row of a cluster, each id as its offset from the cluster's first of its table. */
async function rowsOf(pool: pg.Pool, clusterId: number): Promise<Record<string, unknown[]>> {
  const read = async (query: string) => (await pool.query(query, [clusterId])).rows;
  const first = (table: string) => `(select min(id) from ${table} where cluster_id = $1)`;
  const firstNpu = "(select min(n.id) from npus n join servers s on s.id = n.server_ref where s.cluster_id = $1)";
  return {
    superPods: await read(`select id - ${first("super_pods")} as id, super_pod_id, position from super_pods where cluster_id = $1 order by id`),
    servers: await read(
      `select id - ${first("servers")} as id, super_pod_ref - ${first("super_pods")} as pod, server_id, host_ip, model, position from servers where cluster_id = $1 order by id`,
    ),
    npus: await read(
      `select n.id - ${firstNpu} as id, n.server_ref - ${first("servers")} as server, n.npu_index from npus n join servers s on s.id = n.server_ref where s.cluster_id = $1 order by n.id`,
    ),
    devices: await read(
      `select id - ${first("devices")} as id, server_ref - ${first("servers")} as server, npu_ref - ${firstNpu} as npu, device_id, die_index, super_device_id,
         device_ip, device_port, backup_device_ip, backup_device_port, host_port from devices where cluster_id = $1 order by id`,
    ),
    links: await read(
      `select kind, source_device - ${first("devices")} as source, target_device - ${first("devices")} as target from links where cluster_id = $1 order by id`,
    ),
    fabric: await read(
      `select (select count(*)::int from fabric_planes where cluster_id = $1) as planes, (select count(*)::int from fabric_switches where cluster_id = $1) as switches,
         (select count(*)::int from fabric_links where cluster_id = $1) as links`,
    ),
    snapshot: await read("select counts from inventory_snapshots where cluster_id = $1"),
  };
}

const a3 = () => generateFromTemplate({ superPods: 4, serversPerSuperPod: 6 }) as unknown as JsonObject;
const tables: [string, string, { superPods: number; servers: number; devices: number; links: number }][] = [
  // 4 pods × 6 servers × 8 NPUs × 2 dies; links: a backup rail per NPU, a ring of 6 per pod and rail, 3 × 6 RoCE pairs per rail.
  ["A3 super pods (1.2)", writeRankTable(a3()), { superPods: 4, servers: 24, devices: 384, links: 192 + 4 * 6 * 16 + 3 * 6 * 16 }],
  // 9 servers × 8 NPUs of one die; links: a full mesh of 8 NPUs per server, 8 RoCE pairs between neighbours.
  [
    "A2 servers (1.0)",
    writeRankTable(generateFromTemplate({ version: "1.0", serversPerSuperPod: 9, npusPerServer: 8, diesPerNpu: 1 }) as unknown as JsonValue),
    { superPods: 0, servers: 9, devices: 72, links: 9 * 28 + 8 * 8 },
  ],
];

describe("a 1.x table imported as it streams", () => {
  it.each(tables)("stores for %s exactly the whole-table import's rows", async (name, text, expected) => {
    const { db, pool } = testDatabase();
    const slug = name.startsWith("A3") ? "a3" : "a2";
    const whole = await insertClusterFromParts(db, { slug: `${slug}-whole`, name, description: "" }, [inventoryFromRankTable(text).inventory!]);
    const { plan } = checkStreamedTable(text, small)!;
    const parts = [...streamedInventoryParts(text, plan!, small)];
    expect(parts.length).toBeGreaterThan(3);
    const streamed = await insertClusterFromParts(db, { slug: `${slug}-streamed`, name, description: "" }, parts);
    expect(streamed.counts).toEqual(whole.counts);
    expect(streamed.counts).toMatchObject(expected);
    const [stored, storedWhole] = [await rowsOf(pool, streamed.clusterId), await rowsOf(pool, whole.clusterId)];
    expect(stored).toEqual(storedWhole);
    expect(stored.devices).toHaveLength(expected.devices);
    expect(stored.links).toHaveLength(expected.links);
  });

  it("is what `rankscope cluster add` does with a table file", async () => {
    const text = writeRankTable(a3());
    const added = await rankscope(["cluster", "add", "a3-cli", "--from", "a3.json"], { "a3.json": text });
    expect(added).toMatchObject({ status: 0, stdout: "created cluster a3-cli (a3-cli): 4 super pods, 24 servers, 384 dies\n" });
    const { pool } = testDatabase();
    const ids = async (slug: string) => (await pool.query<{ id: number }>("select id from clusters where slug = $1", [slug])).rows[0]!.id;
    expect(await rowsOf(pool, await ids("a3-cli"))).toEqual(await rowsOf(pool, await ids("a3-whole")));
  });

  it("refuses a broken table with the whole-table findings and writes nothing", async () => {
    const table = a3() as { server_list: { device: JsonObject[] }[] } & JsonObject;
    for (const server of table.server_list.slice(1)) server.device[0]!.device_ip = table.server_list[0]!.device[0]!.device_ip!;
    const text = writeRankTable(table);
    const errors = inventoryFromRankTable(text).issues.filter((issue) => issue.severity === "error");
    expect(errors.length).toBeGreaterThan(10);
    const refused = await rankscope(["cluster", "add", "a3-broken", "--from", "broken.json"], { "broken.json": text });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      `rankscope cluster: broken.json cannot become an inventory: ${errors.length} error finding(s)\n` +
        errors.slice(0, 10).map((issue) => `  ${issue.code} ${issue.path} ${issue.message}\n`).join("") +
        `  … and ${errors.length - 10} more (rankscope validate broken.json lists them all)\n`,
    );
    expect((await testDatabase().pool.query("select 1 from clusters where slug = 'a3-broken'")).rowCount).toBe(0);
  });
});
