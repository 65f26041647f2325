import { integer, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";
import type { PortPolicy } from "@/lib/ports/policy";
import { clusters } from "../cluster/table";

/** A cluster's port policy (lib/ports/policy.ts, validated there); a cluster without a row uses the default policy. */
export const clusterPortPolicies = pgTable("cluster_port_policies", {
  clusterId: integer("cluster_id")
    .primaryKey()
    .references(() => clusters.id, { onDelete: "cascade" }),
  policy: jsonb("policy").$type<PortPolicy>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
