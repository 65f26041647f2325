import { sql } from "drizzle-orm";
import { check, foreignKey, index, inet, integer, pgTable, serial, text, unique } from "drizzle-orm/pg-core";
import { clusters } from "../cluster/table";
import { superPods } from "../super-pod/table";

export const servers = pgTable(
  "servers",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    /** Null in AI Server mode (no super pods). */
    superPodRef: integer("super_pod_ref"),
    serverId: text("server_id").notNull(),
    hostIp: inet("host_ip"),
    model: text("model").notNull(),
    /** Order in the cluster: rank tables list servers in this order. */
    position: integer("position").notNull(),
  },
  (t) => [
    unique("servers_cluster_server_id").on(t.clusterId, t.serverId),
    unique("servers_cluster_id_id").on(t.clusterId, t.id),
    index("servers_super_pod_ref").on(t.superPodRef),
    foreignKey({
      name: "servers_super_pod_same_cluster",
      columns: [t.clusterId, t.superPodRef],
      foreignColumns: [superPods.clusterId, superPods.id],
    }).onDelete("cascade"),
    check("servers_server_id_length", sql`length(${t.serverId}) between 1 and 64`),
    check("servers_model_known", sql`${t.model} in ('Atlas 800T A3', 'Atlas 800T A2', 'Atlas 950')`),
  ],
);
