import { integer, json, pgTable, timestamp } from "drizzle-orm/pg-core";
import type { InventorySnapshot } from "@/lib/topology/inventory-snapshot";
import { clusters } from "../cluster/table";
import type { ClusterSummary } from "../cluster/validation";

export type InventoryCounts = Pick<ClusterSummary, "superPods" | "servers" | "npus" | "devices" | "serversByModel">;

/**
 * A cluster's inventory in the compact form the topology index is built from (lib/topology/inventory-snapshot.ts),
 * stored when the inventory is written and keyed by the revision it was taken at: a server process that has no
 * index of the revision builds it from this one value instead of a million rows (db/queries/inventory-snapshot.ts).
 * One row per cluster, the newest revision; a revision without its snapshot (the row is older) is read from rows.
 * `json`, not `jsonb`: it is only ever read whole, and stored as text it is written and read without conversion.
 */
export const inventorySnapshots = pgTable("inventory_snapshots", {
  clusterId: integer("cluster_id")
    .primaryKey()
    .references(() => clusters.id, { onDelete: "cascade" }),
  inventoryRevision: integer("inventory_revision").notNull(),
  body: json("body").$type<InventorySnapshot>().notNull(),
  /**
   * The overview's counts of the same revision, so a process's first overview reads them instead of counting every
   * cluster's rows (9.4 s with three clusters of 524,288 NPUs; scripts/bench/scale.ts). Null in rows stored before.
   */
  counts: json("counts").$type<InventoryCounts>(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
