import { simulateDay } from "@/lib/faults/simulate";
import type { DatabaseHandle } from "../../client";
import { systemActor } from "../audit";
import { findCluster } from "../clusters";
import { ingestFaultEvents } from "./ingest";

/**
 * The demo seed's day of faults: the simulator's day ending now, on the A3 demo cluster, through the same ingestion
 * as the API. Runs once: a cluster that has any fault event is left alone. Returns the number of events written.
 */
export async function seedDemoFaults(handle: DatabaseHandle, now = Date.now(), cluster = "atlas-a3-demo"): Promise<number> {
  const ref = await findCluster(handle.db, cluster);
  if (!ref) return 0;
  const { rows } = await handle.pool.query("select 1 from fault_events where cluster_id = $1 limit 1", [ref.id]);
  if (rows.length) return 0;
  const result = await ingestFaultEvents(handle, simulateDay({ cluster, end: now }), { atomic: "item", actor: systemActor, now });
  return result.counts.created;
}
