import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { CpuLayout } from "@/lib/affinity/layout";
import { clusters } from "../cluster/table";

/**
 * A server's CPU layout (NUMA nodes and each NPU's node), from the `lscpu` and `npu-smi info -t topo` texts an editor
 * pasted, kept beside them. Keyed by the server's `server_id` in its cluster rather than by the servers row: an
 * inventory import replaces the rows, and the hardware's layout outlives that.
 */
export const serverCpuLayouts = pgTable(
  "server_cpu_layouts",
  {
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    serverId: text("server_id").notNull(),
    lscpuText: text("lscpu_text").notNull(),
    topoText: text("topo_text"),
    layout: jsonb("layout").$type<CpuLayout>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
    updatedBy: text("updated_by"),
  },
  (t) => [
    primaryKey({ name: "server_cpu_layouts_pk", columns: [t.clusterId, t.serverId] }),
    check("server_cpu_layouts_lscpu_length", sql`length(${t.lscpuText}) between 1 and 65536`),
    check("server_cpu_layouts_topo_length", sql`${t.topoText} is null or length(${t.topoText}) <= 65536`),
  ],
);
