import { integer, json, pgTable, timestamp } from "drizzle-orm/pg-core";
import type { InventorySnapshot } from "@/lib/topology/inventory-snapshot";
import { clusters } from "../cluster/table";

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
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
