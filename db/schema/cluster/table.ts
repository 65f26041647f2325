import { sql } from "drizzle-orm";
import { check, integer, pgEnum, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { clusterModes } from "./constants";

export const clusterMode = pgEnum("cluster_mode", clusterModes);

export const clusters = pgTable(
  "clusters",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    mode: clusterMode("mode").notNull(),
    description: text("description").notNull().default(""),
    /** Bumped on every inventory change, so derived views (topology) can be cached per revision. */
    inventoryRevision: integer("inventory_revision").notNull().default(1),
    /** The fabric profile chosen for the cluster (lib/fabric/profiles.ts); null: the default for its servers' model. */
    fabricProfile: text("fabric_profile"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("clusters_slug_format", sql`${t.slug} ~ '^[a-z0-9][a-z0-9-]{0,62}$'`),
    check("clusters_name_not_blank", sql`length(trim(${t.name})) > 0`),
    check("clusters_fabric_profile_format", sql`${t.fabricProfile} ~ '^[a-z0-9][a-z0-9-]{0,47}$'`),
  ],
);
