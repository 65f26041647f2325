import { sql } from "drizzle-orm";
import { check, integer, pgTable, serial, text, unique } from "drizzle-orm/pg-core";
import { clusters } from "../cluster/table";

export const superPods = pgTable(
  "super_pods",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    /** `super_pod_id` as the rank table writes it: a physical id or a user-defined name. */
    superPodId: text("super_pod_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    unique("super_pods_cluster_super_pod_id").on(t.clusterId, t.superPodId),
    // Lets servers reference (cluster, super pod) so a server can never join another cluster's super pod.
    unique("super_pods_cluster_id_id").on(t.clusterId, t.id),
    check("super_pods_id_length", sql`length(${t.superPodId}) between 1 and 64`),
  ],
);
