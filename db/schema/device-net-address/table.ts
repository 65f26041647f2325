import { sql } from "drizzle-orm";
import { check, foreignKey, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { devices } from "../device/table";

/**
 * The network levels of a rank of a "2.0" table (Atlas 350/850/950), one row per address of each level: its
 * `level_list[]` entry (net_layer, net_instance_id, net_type) repeated on each of that level's `rank_addr_list[]`
 * addresses (addr_type, addr, ports, plane_id). Sources: HCCL's A5 reference `rank_table_config_a5.md`
 * (hicann/hccl@09300b70) and MindCluster's hccl.json description (lib/rank-table/a5-model.ts).
 */
export const deviceNetAddresses = pgTable(
  "device_net_addresses",
  {
    id: serial("id").primaryKey(),
    clusterId: integer("cluster_id").notNull(),
    deviceRef: integer("device_ref").notNull(),
    netLayer: integer("net_layer").notNull(),
    netInstanceId: text("net_instance_id").notNull(),
    netType: text("net_type").notNull(),
    /** The address's place in its level's rank_addr_list. */
    position: integer("position").notNull(),
    addrType: text("addr_type").notNull(),
    addr: text("addr").notNull(),
    ports: text("ports").array().notNull(),
    planeId: text("plane_id"),
  },
  (t) => [
    foreignKey({
      name: "device_net_addresses_device_same_cluster",
      columns: [t.clusterId, t.deviceRef],
      foreignColumns: [devices.clusterId, devices.id],
    }).onDelete("cascade"),
    index("device_net_addresses_device_ref").on(t.deviceRef),
    // An EID names one port group of one die, so it is unique in a cluster (RT124); a host NIC address may be
    // shared by the NPUs behind one PCIe switch (A5 reference), so it is not.
    uniqueIndex("device_net_addresses_cluster_eid").on(t.clusterId, sql`lower(${t.addr})`).where(sql`${t.addrType} = 'EID'`),
    // A5 reference: net_layer [0, 7]; rank_addr_list at most 24 entries; addr 1–256 characters.
    check("device_net_addresses_net_layer_range", sql`${t.netLayer} between 0 and 7`),
    check("device_net_addresses_position_range", sql`${t.position} between 0 and 23`),
    check("device_net_addresses_addr_length", sql`length(${t.addr}) between 1 and 256`),
  ],
);
