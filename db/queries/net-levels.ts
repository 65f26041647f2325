import { sql } from "drizzle-orm";
import type { NetLevelSpec } from "@/lib/inventory/model";
import type { Database } from "../client";

type AddressRow = {
  server_ref: number;
  device_id: number;
  net_layer: number;
  net_instance_id: string;
  net_type: string;
  addr_type: string;
  addr: string;
  ports: string[];
  plane_id: string | null;
};

/**
 * The "2.0" network levels of a cluster's dies (db/schema/device-net-address), keyed `serverRef/deviceId`: each
 * die's levels in net_layer order, each level's addresses in rank_addr_list order. Empty for a 1.x cluster.
 */
export async function loadNetLevels(db: Database, clusterId: number): Promise<Map<string, NetLevelSpec[]>> {
  const { rows } = await db.execute<AddressRow>(sql`
    select d.server_ref, d.device_id, a.net_layer, a.net_instance_id, a.net_type, a.addr_type, a.addr, a.ports, a.plane_id
    from device_net_addresses a join devices d on d.id = a.device_ref
    where a.cluster_id = ${clusterId} order by a.device_ref, a.net_layer, a.position`);
  const byDie = new Map<string, NetLevelSpec[]>();
  for (const row of rows) {
    const key = `${row.server_ref}/${row.device_id}`;
    let levels = byDie.get(key);
    if (!levels) byDie.set(key, (levels = []));
    let level = levels[levels.length - 1];
    if (level?.netLayer !== row.net_layer) levels.push((level = { netLayer: row.net_layer, netInstanceId: row.net_instance_id, netType: row.net_type, addresses: [] }));
    level.addresses.push({ addrType: row.addr_type, addr: row.addr, ports: row.ports, planeId: row.plane_id });
  }
  return byDie;
}
