import { sql } from "drizzle-orm";
import { check, foreignKey, index, integer, pgEnum, pgTable, serial, text, unique } from "drizzle-orm/pg-core";
import { clusters } from "../cluster/table";
import { servers } from "../server/table";
import { superPods } from "../super-pod/table";
import { fabricLinkKinds, fabricPlaneKinds, fabricSwitchKinds } from "./constants";

export const fabricPlaneKind = pgEnum("fabric_plane_kind", fabricPlaneKinds);
export const fabricSwitchKind = pgEnum("fabric_switch_kind", fabricSwitchKinds);
export const fabricLinkKind = pgEnum("fabric_link_kind", fabricLinkKinds);

/**
 * A super pod's bus plane, or the cluster's parameter plane (no super pod). Derived from the cluster's fabric
 * profile (clusters.fabric_profile) whenever its inventory is written; `key` is lib/fabric/derive.ts's stable key.
 */
export const fabricPlanes = pgTable(
  "fabric_planes",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id")
      .notNull()
      .references(() => clusters.id, { onDelete: "cascade" }),
    superPodRef: integer("super_pod_ref"),
    key: text("key").notNull(),
    kind: fabricPlaneKind("kind").notNull(),
    planeIndex: integer("plane_index").notNull(),
    /** "all-to-all", "leaf-spine", or null when the profile does not know. */
    shape: text("shape"),
  },
  (t) => [
    unique("fabric_planes_cluster_key").on(t.clusterId, t.key),
    unique("fabric_planes_cluster_id_id").on(t.clusterId, t.id),
    foreignKey({
      name: "fabric_planes_super_pod_same_cluster",
      columns: [t.clusterId, t.superPodRef],
      foreignColumns: [superPods.clusterId, superPods.id],
    }).onDelete("cascade"),
  ],
);

/** A bus switch of a plane, or one of a server's node-side bus chips (SwitchInfoCfg's SwitchChipId = switch_index). */
export const fabricSwitches = pgTable(
  "fabric_switches",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id").notNull(),
    planeRef: integer("plane_ref").notNull(),
    key: text("key").notNull(),
    kind: fabricSwitchKind("kind").notNull(),
    switchIndex: integer("switch_index").notNull(),
    serverRef: integer("server_ref"),
    /** Ports of the switch, null when the profile does not know. */
    ports: integer("ports"),
  },
  (t) => [
    unique("fabric_switches_cluster_key").on(t.clusterId, t.key),
    unique("fabric_switches_cluster_id_id").on(t.clusterId, t.id),
    foreignKey({
      name: "fabric_switches_plane_same_cluster",
      columns: [t.clusterId, t.planeRef],
      foreignColumns: [fabricPlanes.clusterId, fabricPlanes.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "fabric_switches_server_same_cluster",
      columns: [t.clusterId, t.serverRef],
      foreignColumns: [servers.clusterId, servers.id],
    }).onDelete("cascade"),
    check("fabric_switches_node_chip_has_server", sql`(${t.kind} = 'node-chip') = (${t.serverRef} is not null)`),
    index("fabric_switches_server_ref").on(t.serverRef),
    // The plane's cascade looks switches up by (cluster, plane), the foreign key's columns: without both in one index,
    // deleting a 1,024-server fabric's planes scanned the cluster's switches once per plane.
    index("fabric_switches_cluster_plane").on(t.clusterId, t.planeRef),
  ],
);

/**
 * A link into a plane: node chip ↔ bus switch (uplink), NPU ↔ parameter plane (parameter).
 * The bulk of the fabric (64 rows per A3 server), rebuilt whole by db/queries/fabric-build.ts `rebuildFabric`: the switch
 * refs have no foreign keys (two index lookups fewer per row); the plane and server keys remove a link with either.
 */
export const fabricLinks = pgTable(
  "fabric_links",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id").notNull(),
    planeRef: integer("plane_ref").notNull(),
    kind: fabricLinkKind("kind").notNull(),
    switchRef: integer("switch_ref"),
    peerSwitchRef: integer("peer_switch_ref"),
    serverRef: integer("server_ref").notNull(),
    npuIndex: integer("npu_index"),
    ports: integer("ports").notNull(),
  },
  (t) => [
    // No foreign key to the plane: a link's plane is derived with it (rebuildFabric writes both, and deletes the links
    // before the planes), and every way a plane goes otherwise (its cluster, its super pod) takes the link's server
    // with it, whose key below removes the link. The plane key cost a lookup and a row lock on fabric_planes per link
    // written: 64 per A3 server, 2.1M for a 524,288-die cluster (issue 21).
    foreignKey({
      name: "fabric_links_server_same_cluster",
      columns: [t.clusterId, t.serverRef],
      foreignColumns: [servers.clusterId, servers.id],
    }).onDelete("cascade"),
    check("fabric_links_ports_positive", sql`${t.ports} > 0`),
    index("fabric_links_cluster_kind").on(t.clusterId, t.kind),
    index("fabric_links_switch_ref").on(t.switchRef),
    index("fabric_links_peer_switch_ref").on(t.peerSwitchRef),
    index("fabric_links_server_ref").on(t.serverRef),
    // A plane's links by (cluster, plane): the fabric view counts each plane's servers (db/queries/fabric.ts loadFabric).
    // (It was the plane key's cascade index: without it, deleting a 1,024-server fabric's 225 planes scanned the
    // cluster's 65,536 links once per plane.)
    index("fabric_links_cluster_plane").on(t.clusterId, t.planeRef),
  ],
);
