import { sql } from "drizzle-orm";
import { check, foreignKey, index, integer, pgEnum, pgTable, serial, unique } from "drizzle-orm/pg-core";
import { devices } from "../device/table";
import { linkKinds } from "./constants";

export const linkKind = pgEnum("link_kind", linkKinds);

export const links = pgTable(
  "links",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id").notNull(),
    kind: linkKind("kind").notNull(),
    /** Links are undirected; storing them with source < target makes each pair appear once. */
    sourceDevice: integer("source_device").notNull(),
    targetDevice: integer("target_device").notNull(),
  },
  (t) => [
    unique("links_kind_pair").on(t.kind, t.sourceDevice, t.targetDevice),
    foreignKey({
      name: "links_source_same_cluster",
      columns: [t.clusterId, t.sourceDevice],
      foreignColumns: [devices.clusterId, devices.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "links_target_same_cluster",
      columns: [t.clusterId, t.targetDevice],
      foreignColumns: [devices.clusterId, devices.id],
    }).onDelete("cascade"),
    check("links_ordered_pair", sql`${t.sourceDevice} < ${t.targetDevice}`),
    index("links_cluster_kind").on(t.clusterId, t.kind),
    index("links_source_device").on(t.sourceDevice),
    index("links_target_device").on(t.targetDevice),
  ],
);
