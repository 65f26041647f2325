import { beforeEach, describe, expect, it } from "vitest";
import { defaultPortPolicy } from "@/lib/ports/policy";
import { testDatabase } from "@/test/database";
import { seedDemoData } from "../seed";
import { systemActor } from "./audit";
import { clusterLosses, deleteCluster, inventoryTables } from "./cluster-delete";
import { getClusterOrThrow } from "./clusters";
import { createRankTable } from "./rank-table-saves";
import { putPortPolicy } from "./ports";
import { replaceInventory } from "./inventory-replace";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { inventoryFromRankTable } from "@/lib/topology/import";
import { rankscope } from "@/test/cli";
import { insertClusterFromParts } from "./inventory";

const doomed = "atlas-a3-demo";
const kept = "atlas-a2-demo";
/** An Atlas 950 ("2.0") cluster: the one kind with network addresses per die. */
const a5 = "a5-pod";

/**
 * Rows per cluster in every table that names a cluster (read from the catalogue, so a new table is counted too),
 * and in those that reach one through a parent: NPUs by their server, a job's ranks and diagnoses by the job.
 */
async function rowsPerCluster(): Promise<Record<string, Record<string, number>>> {
  const { pool } = testDatabase();
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `select table_name from information_schema.columns where table_schema = 'public' and column_name = 'cluster_id' order by table_name`,
  );
  const counts: Record<string, Record<string, number>> = {};
  const add = async (name: string, query: string) => {
    const { rows } = await pool.query<{ slug: string | null; n: string }>(query);
    for (const { slug, n } of rows) (counts[slug ?? "(none)"] ??= {})[name] = Number(n);
  };
  for (const { table_name: table } of tables) {
    await add(table, `select c.slug, count(*) as n from ${table} t left join clusters c on c.id = t.cluster_id group by c.slug`);
  }
  await add("npus", "select c.slug, count(*) as n from npus n join servers s on s.id = n.server_ref join clusters c on c.id = s.cluster_id group by c.slug");
  await add("job_ranks", "select c.slug, count(*) as n from job_ranks r join jobs j on j.id = r.job_id join clusters c on c.id = j.cluster_id group by c.slug");
  await add("job_diagnoses", "select c.slug, count(*) as n from job_diagnoses r join jobs j on j.id = r.job_id join clusters c on c.id = j.cluster_id group by c.slug");
  await add("rank_table_revisions", "select c.slug, count(*) as n from rank_table_revisions r join rank_tables t on t.id = r.rank_table_id left join clusters c on c.id = t.cluster_id group by c.slug");
  return counts;
}

const a2Table = JSON.stringify({
  version: "1.0",
  server_count: "1",
  status: "completed",
  server_list: [{ server_id: "a2-node0", device: [{ device_id: "0", device_ip: "10.20.0.1", rank_id: "0" }] }],
});

beforeEach(async () => {
  const handle = testDatabase();
  await handle.pool.query("truncate clusters, rank_tables, jobs cascade");
  await seedDemoData(handle);
  const generated = await rankscope(["generate", "--version", "2.0", "--racks", "2"]);
  const { inventory } = inventoryFromRankTable(generated.stdout);
  await insertClusterFromParts(handle.db, { slug: a5, name: a5, description: "" }, [inventory!]);
  for (const slug of [doomed, kept]) {
    await putPortPolicy(handle.db, slug, defaultPortPolicy, systemActor);
    const cluster = await getClusterOrThrow(handle.db, slug);
    await createRankTable(handle.db, { name: `table of ${slug}`, text: a2Table, clusterId: cluster.id }, systemActor);
  }
});

describe("deleteCluster", () => {
  it("deletes exactly the cluster's rows, detaches its rank tables and touches nothing of the other cluster", async () => {
    const { db, pool } = testDatabase();
    const before = await rowsPerCluster();
    // Between them the two deleted clusters have rows in the tables that matter: inventory, fabric, jobs, faults.
    for (const table of [...inventoryTables, "jobs", "job_ranks", "fault_events", "fault_rollup_dirty", "cluster_port_policies", "inventory_snapshots", "rank_tables"]) {
      expect((before[doomed]?.[table] ?? 0) + (before[a5]?.[table] ?? 0), table).toBeGreaterThan(0);
    }
    const losses = await clusterLosses(db, doomed);
    expect(losses).toMatchObject({ slug: doomed, dies: before[doomed]!.devices, jobs: before[doomed]!.jobs, faultEvents: before[doomed]!.fault_events, rankTablesDetached: 1 });

    expect(await deleteCluster(db, doomed, systemActor)).toEqual(losses);
    const after = await rowsPerCluster();
    expect(after[doomed]).toBeUndefined();
    expect(after[kept]).toEqual(before[kept]);
    expect(after[a5]).toEqual(before[a5]);
    // Rank tables outlive their cluster, with every revision, tied to none (the foreign key's ON DELETE SET NULL).
    expect(after["(none)"]).toEqual({
      rank_tables: (before["(none)"]?.rank_tables ?? 0) + before[doomed]!.rank_tables!,
      rank_table_revisions: (before["(none)"]?.rank_table_revisions ?? 0) + before[doomed]!.rank_table_revisions!,
    });
    const audit = await pool.query("select action, target_id, before->>'dies' as dies from audit_log where action = 'cluster.delete'");
    expect(audit.rows).toEqual([{ action: "cluster.delete", target_id: doomed, dies: String(losses!.dies) }]);

    expect(await deleteCluster(db, doomed, systemActor)).toBeNull();

    expect(await deleteCluster(db, a5, systemActor)).toMatchObject({ slug: a5, dies: before[a5]!.devices });
    const last = await rowsPerCluster();
    expect(last[a5]).toBeUndefined();
    expect(last[kept]).toEqual(before[kept]);
  });

  it("leaves everything as it was when the delete fails at its last step", async () => {
    const { db, pool } = testDatabase();
    // Something that refuses the cluster row's delete only after the whole inventory has gone.
    await pool.query("create table delete_guard (cluster_id integer references clusters (id) on delete restrict)");
    try {
      await pool.query("insert into delete_guard select id from clusters where slug = $1", [doomed]);
      const before = await rowsPerCluster();
      const audited = async () => (await pool.query("select 1 from audit_log where action = 'cluster.delete'")).rowCount;
      const auditedBefore = await audited();
      await expect(deleteCluster(db, doomed, systemActor)).rejects.toMatchObject({ cause: { code: "23503" } });
      const after = await rowsPerCluster();
      delete after[doomed]!.delete_guard;
      delete before[doomed]!.delete_guard;
      expect(after).toEqual(before);
      expect(await audited()).toBe(auditedBefore);
    } finally {
      await pool.query("drop table delete_guard");
    }
  });

  it("clears an inventory that replaceInventory then writes again, the other cluster untouched", async () => {
    const { db } = testDatabase();
    const before = await rowsPerCluster();
    const cluster = await getClusterOrThrow(db, kept);
    await replaceInventory(db, cluster.id, demoA2Cluster(3), cluster.inventoryRevision, systemActor, {});
    const after = await rowsPerCluster();
    expect(after[doomed]).toEqual(before[doomed]);
    expect(after[kept]).toMatchObject({ servers: 3, devices: 24, npus: 24, jobs: before[kept]!.jobs, fault_events: before[kept]!.fault_events });
  });
});

describe("inventoryTables", () => {
  it("holds every table whose foreign key references one of them, so none is left dangling when they are cleared", async () => {
    const { pool } = testDatabase();
    const { rows } = await pool.query<{ referencing: string; referenced: string }>(
      `select c.conrelid::regclass::text as referencing, c.confrelid::regclass::text as referenced
       from pg_constraint c where c.contype = 'f' and c.confrelid::regclass::text = any($1)`,
      [[...inventoryTables]],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { referencing, referenced } of rows) expect(inventoryTables, `${referencing} → ${referenced}`).toContain(referencing);
  });

  it("clears children before their parents, so with the per-row triggers on (no bulk mode) none cascades", async () => {
    const { pool } = testDatabase();
    const { rows } = await pool.query<{ referencing: string; referenced: string }>(
      `select distinct c.conrelid::regclass::text as referencing, c.confrelid::regclass::text as referenced
       from pg_constraint c where c.contype = 'f' and c.confrelid::regclass::text = any($1)`,
      [[...inventoryTables]],
    );
    for (const { referencing, referenced } of rows) {
      expect(inventoryTables.indexOf(referencing as never), `${referencing} before ${referenced}`).toBeLessThan(inventoryTables.indexOf(referenced as never));
    }
  });
});
