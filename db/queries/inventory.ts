import { sql } from "drizzle-orm";
import type { ClusterSummary } from "../schema/cluster/validation";
import type { InventoryCounts } from "../schema";
import type { ClusterSpec } from "@/lib/inventory/model";
import type { Database } from "../client";
import { DomainError } from "@/lib/errors";
import { clusters } from "../schema";
import { rebuildFabric } from "./fabric-build";
import { analyzeInventoryTables } from "./inventory-bulk";
import { encodeInventoryRows, type DieRefs, type EncodedInventoryRows, type EncoderState, type InventoryPart } from "./inventory-rows";
import { storeInventorySnapshot } from "./inventory-snapshot";
import { InventoryWriter, type WrittenCounts } from "./inventory-writer";


/** Writes a whole cluster inventory in one transaction and returns the new cluster's id. */
export async function insertCluster(db: Database, spec: ClusterSpec): Promise<number> {
  const { clusterId } = await insertClusterFromParts(db, spec, [spec]);
  return clusterId;
}

export type { InventoryPart } from "./inventory-rows";

/**
 * Creates a cluster from an inventory that arrives a part at a time (a SuperCluster's tables, one per super pod), in
 * one transaction: each part is written (./inventory-writer.ts) as it comes and then dropped, so memory follows a
 * part, not the cluster. Parts must share their mode; links name dies of their part or an earlier one. `then` runs last in the transaction
 * (the caller's audit record). Nothing is written when a part throws.
 */
export async function insertClusterFromParts(
  db: Database,
  header: Pick<ClusterSpec, "slug" | "name" | "description">,
  parts: Iterable<InventoryPart> | AsyncIterable<InventoryPart>,
  then?: (tx: Transaction, clusterId: number, counts: WrittenCounts) => Promise<void>,
): Promise<{ clusterId: number; counts: WrittenCounts }> {
  return insertClusterFromRows(
    db,
    header,
    async function* (start) {
      let state = start;
      const dies: DieRefs = new Map();
      for await (const part of parts) {
        const rows = encodeInventoryRows(part, state, dies);
        state = rows.state;
        yield rows;
      }
    },
    then,
  );
}

/**
 * insertClusterFromParts for parts already turned into rows (./inventory-rows.ts), e.g. in a worker thread:
 * `rows(start)` encodes the first part from `start` and each next one from the state the one before left.
 */
export async function insertClusterFromRows(
  db: Database,
  header: Pick<ClusterSpec, "slug" | "name" | "description">,
  rows: (start: EncoderState) => AsyncIterable<EncodedInventoryRows>,
  then?: (tx: Transaction, clusterId: number, counts: WrittenCounts) => Promise<void>,
): Promise<{ clusterId: number; counts: WrittenCounts }> {
  return db.transaction(async (tx) => {
    // The cluster's id first, since every row names it; its row, with the mode, once the first part is read.
    const { rows: ids } = await tx.execute<{ id: number }>(sql`select nextval(pg_get_serial_sequence('clusters', 'id'))::int as id`);
    const clusterId = ids[0]!.id;
    const writer = new InventoryWriter(tx, clusterId);
    let mode: ClusterSpec["mode"] | null = null;
    for await (const part of rows(await writer.start())) {
      if (!part.mode) throw new Error("a new cluster's inventory parts must say their mode");
      if (mode === null) {
        mode = part.mode;
        await tx.insert(clusters).values({ id: clusterId, slug: header.slug, name: header.name, mode, description: header.description });
      } else if (part.mode !== mode) {
        throw new DomainError("invalid", `the parts of one inventory must share a mode: ${mode} and ${part.mode}`, { code: "mixed_inventory_modes" });
      }
      await writer.writeRows(part);
    }
    if (mode === null) throw new DomainError("invalid", "an inventory needs at least one part", { code: "empty_inventory" });
    const counts = await writer.finish();
    await rebuildFabric(tx, clusterId);
    await analyzeInventoryTables(tx, counts.devices);
    // The topology index's compact form, so the first view after the import needs no million-row read.
    await storeInventorySnapshot(tx, clusterId);
    await then?.(tx, clusterId, counts);
    return { clusterId, counts };
  });
}

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Writes super pods, servers, NPUs, dies and links of an (empty) cluster in batches (./inventory-writer.ts), then
 * derives its fabric (planes, switches, links: db/queries/fabric-build.ts) from the cluster's profile, inside the caller's
 * transaction.
 */
export async function insertInventory(
  tx: Transaction,
  clusterId: number,
  spec: Pick<ClusterSpec, "superPodIds" | "servers" | "links">,
): Promise<WrittenCounts> {
  const writer = new InventoryWriter(tx, clusterId);
  await writer.addPart(spec);
  const counts = await writer.finish();
  await rebuildFabric(tx, clusterId);
  await analyzeInventoryTables(tx, counts.devices);
  return counts;
}

/**
 * Each cluster's counts, kept per inventory revision: they change only with the inventory (every change bumps
 * `inventory_revision`), and counting a SuperCluster's rows on every overview request grew with its dies (issue 21:
 * 1.2 s warm at 131,072 dies, load 20). Stored under the revision read with the counts, so a write between the two
 * reads is counted again on the next request, never kept under the older revision.
 */
const summaryCache = new Map<number, { revision: number; summary: ClusterSummary }>();

/** Every cluster with its counts per level and per server model: one cheap read, and the counts of changed inventories. */
export async function listClusterSummaries(db: Database): Promise<ClusterSummary[]> {
  const heads = await db.execute<{ id: number; slug: string; name: string; mode: ClusterSummary["mode"]; revision: number }>(
    sql`select id, slug, name, mode, inventory_revision as revision from clusters order by id`,
  );
  let stale = heads.rows.filter((head) => summaryCache.get(head.id)?.revision !== head.revision).map((head) => head.id);
  if (stale.length > 0) {
    // Counted when the inventory was written (storeInventorySnapshot), for the revision it was written at.
    const stored = await db.execute<{ id: number; revision: number; counts: InventoryCounts }>(
      sql`select cluster_id as id, inventory_revision as revision, counts from inventory_snapshots
          where cluster_id = any(${`{${stale.join(",")}}`}::int[]) and counts is not null`,
    );
    const headOf = new Map(heads.rows.map((head) => [head.id, head]));
    for (const row of stored.rows) {
      const head = headOf.get(row.id)!;
      if (row.revision === head.revision) summaryCache.set(row.id, { revision: row.revision, summary: { id: row.id, slug: head.slug, name: head.name, mode: head.mode, ...row.counts } });
    }
    stale = stale.filter((id) => summaryCache.get(id)?.revision !== headOf.get(id)!.revision);
  }
  if (stale.length > 0) {
    const result = await db.execute<{
      id: number;
      revision: number;
      super_pods: number;
      servers: number;
      npus: number;
      devices: number;
      servers_by_model: Record<string, number> | null;
    }>(sql`
      select c.id, c.inventory_revision as revision,
        (select count(*)::int from super_pods p where p.cluster_id = c.id) as super_pods,
        (select count(*)::int from servers s where s.cluster_id = c.id) as servers,
        (select count(*)::int from npus n join servers s on s.id = n.server_ref where s.cluster_id = c.id) as npus,
        (select count(*)::int from devices d where d.cluster_id = c.id) as devices,
        (select jsonb_object_agg(model, n) from (
           select model, count(*)::int as n from servers s where s.cluster_id = c.id group by model
         ) m) as servers_by_model
      from clusters c where c.id = any(${`{${stale.join(",")}}`}::int[])`);
    for (const row of result.rows) {
      const head = heads.rows.find((h) => h.id === row.id)!;
      summaryCache.set(row.id, {
        revision: row.revision,
        summary: { id: row.id, slug: head.slug, name: head.name, mode: head.mode, superPods: row.super_pods, servers: row.servers, npus: row.npus, devices: row.devices, serversByModel: row.servers_by_model ?? {} },
      });
    }
  }
  const present = new Set(heads.rows.map((head) => head.id));
  for (const id of summaryCache.keys()) if (!present.has(id)) summaryCache.delete(id);
  // Names and modes are read each time: they change without a new inventory revision.
  return heads.rows.flatMap((head) => {
    const cached = summaryCache.get(head.id);
    return cached ? [{ ...cached.summary, slug: head.slug, name: head.name, mode: head.mode }] : [];
  });
}
