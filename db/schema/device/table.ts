import { sql } from "drizzle-orm";
import { bigint, check, foreignKey, index, inet, integer, pgTable, serial, unique } from "drizzle-orm/pg-core";

import { npus } from "../npu/table";
import { servers } from "../server/table";

/** A die: what HCCL calls a device and gives one rank. */
export const devices = pgTable(
  "devices",
  {
    id: serial("id").primaryKey(),
    // cluster and server are carried here so that uniqueness per cluster / per server is a database constraint.
    clusterId: integer("cluster_id").notNull(),
    serverRef: integer("server_ref").notNull(),
    npuRef: integer("npu_ref").notNull(),
    deviceId: integer("device_id").notNull(),
    /** Which die of its NPU: 0 or 1 on Atlas A3, always 0 on A2 and for the NPUs (ranks) of a "2.0" table. */
    dieIndex: integer("die_index").notNull(),
    superDeviceId: bigint("super_device_id", { mode: "number" }),
    deviceIp: inet("device_ip"),
    devicePort: integer("device_port"),
    backupDeviceIp: inet("backup_device_ip"),
    backupDevicePort: integer("backup_device_port"),
    hostPort: integer("host_port"),
  },
  (t) => [
    unique("devices_server_device_id").on(t.serverRef, t.deviceId),
    unique("devices_cluster_device_ip").on(t.clusterId, t.deviceIp),
    unique("devices_cluster_id_id").on(t.clusterId, t.id),
    index("devices_npu_ref").on(t.npuRef),
    foreignKey({
      name: "devices_server_same_cluster",
      columns: [t.clusterId, t.serverRef],
      foreignColumns: [servers.clusterId, servers.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "devices_npu_same_server",
      columns: [t.serverRef, t.npuRef],
      foreignColumns: [npus.serverRef, npus.id],
    }).onDelete("cascade"),
    // 15 for the 16 dies of an Atlas A3 server; 64 for an NPU of a "2.0" table (A5 reference: device_id [0, 64]).
    check("devices_device_id_range", sql`${t.deviceId} between 0 and 64`),
    check("devices_die_index_range", sql`${t.dieIndex} in (0, 1)`),
    check("devices_super_device_id_range", sql`${t.superDeviceId} >= 0`),
    check("devices_device_port_range", sql`${t.devicePort} between 1 and 65535`),
    check("devices_backup_device_port_range", sql`${t.backupDevicePort} between 1 and 65535`),
    check("devices_host_port_range", sql`${t.hostPort} between 1 and 65535`),
    check("devices_backup_ip_not_own", sql`${t.backupDeviceIp} is distinct from ${t.deviceIp} or ${t.deviceIp} is null`),
  ],
);
