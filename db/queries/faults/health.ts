import { createHash } from "node:crypto";
import type pg from "pg";
import type { OpenFault } from "@/lib/faults/health";
import type { FaultLevel } from "@/lib/faults/levels";
import { isReplicaPool, ReplicaCannotAnswer } from "../../read-database";
import { reevaluateSeries } from "./judgement";
import { getFaultSettings } from "./settings";

/* Open faults: judged again as time passes, and what the topology's health overlay shows of them. */

/** Open network faults whose timeout has passed since they were judged: judge them again (stored), as time passes. */
export async function refreshOpenEscalations(pool: pg.Pool, clusterId: number, now = Date.now()): Promise<number> {
  const { rows } = await pool.query<{ series_key: string; began_at: Date }>(
    `select series_key, min(began_at) as began_at from fault_events
     where cluster_id = $1 and ended_at is null and rule = 'within-fault-timeout' and rule_at <= $2::timestamptz
     group by series_key`,
    [clusterId, new Date(now).toISOString()],
  );
  if (rows.length === 0) return 0;
  // Judging them is a write: the primary does it, and the read with it (db/read-database.ts).
  if (isReplicaPool(pool)) throw new ReplicaCannotAnswer(`${rows.length} open fault series wait to be judged again`);
  const settings = await getFaultSettings(pool, clusterId);
  const result = await reevaluateSeries(pool, clusterId, settings.escalation, rows.map((r) => r.series_key), Math.min(...rows.map((r) => r.began_at.getTime())), now);
  return result.updated;
}

/**
 * Which switch faults degrade their bus plane for the whole pod: a fault of the chip itself (reach scope `chip`) or
 * of a port whose peer is a bus switch (`uplink`, PeerPortDevice L2) — lib/fabric/impact.ts `switchFaultReach`,
 * stored as raw.fabric.reach.podDegraded. A port facing one NPU (or CPU) of the server colours only that server's
 * attachment (its chip and the server), not the plane:
 * - MindCluster handles 灵衢 bus device faults per node: each node's Ascend Device Plugin reads them from the 灵衢
 *   query interface into its own device-info ConfigMap, and rescheduling acts on that node by the fault's level
 *   (Ascend/mind-cluster docs/zh/scheduling/04_usage/04_fault_detection_and_diagnosis/02_fault_types/03_network_faults.md,
 *   "灵衢总线设备故障" and "故障上报机制"); nothing there takes the plane out of service for other nodes;
 * - for the A5 generation's NPU-to-switch member ports the same page grades a port fault by whether the plane's
 *   routing still converges: "超平面路由可收敛设备亚健康" (020000002, sub-health) versus "超平面路由不可收敛" (020001002,
 *   isolate the NPU) — a broken NPU-facing port is the NPU's problem, the plane routes around it;
 * - on the wiring (lib/fabric/sources.ts cm384Wiring), an NPU-facing port carries only that NPU's traffic into the
 *   chip; the chip's uplinks, which the other servers' traffic to this one crosses, are untouched.
 * Events stored before the reach was (no raw.fabric.reach) count as plane-wide: the cautious reading.
 */
const planeWideReach = "coalesce((f.raw->'fabric'->'reach'->>'podDegraded')::boolean, true)";

/** Open events per die (or NPU, server, switch chip), worst level: what the topology's health overlay shows. */
export async function openFaultHealth(pool: pg.Pool, clusterId: number): Promise<(OpenFault & { count: number })[]> {
  const { rows } = await pool.query<{ super_pod_id: string | null; server_id: string; npu_index: number | null; device_id: number | null; plane_key: string | null; switch_key: string | null; level: FaultLevel; n: string }>(
    `select p.super_pod_id, s.server_id, f.npu_index, d.device_id,
       case when f.target_kind = 'switch' and ${planeWideReach} then f.raw->'fabric'->>'plane' end as plane_key,
       case when f.target_kind = 'switch' then f.raw->'fabric'->>'chip' end as switch_key, max(f.level) as level, count(*) n
     from fault_events f
     join servers s on s.id = f.server_ref left join super_pods p on p.id = s.super_pod_ref left join devices d on d.id = f.device_ref
     where f.cluster_id = $1 and f.ended_at is null group by 1, 2, 3, 4, 5, 6 order by 2, 4, 5, 6`,
    [clusterId],
  );
  return rows.map((r) => ({
    superPodId: r.super_pod_id,
    serverId: r.server_id,
    npuIndex: r.npu_index,
    deviceId: r.device_id,
    planeKey: r.plane_key,
    switchKey: r.switch_key,
    level: r.level,
    count: Number(r.n),
  }));
}

/**
 * The open faults of a cluster (re-judged as time passes) and a short version of them, for ETags: equal version,
 * equal overlay.
 */
export async function faultHealthSnapshot(pool: pg.Pool, clusterId: number): Promise<{ collected: boolean; version: string; faults: OpenFault[] }> {
  // A cluster that never had a fault event has no health data: its health stays unknown, never "healthy".
  const { rows } = await pool.query<{ collected: boolean }>("select exists (select 1 from fault_events where cluster_id = $1) as collected", [clusterId]);
  const collected = rows[0]?.collected ?? false;
  if (!collected) return { collected, version: "none", faults: [] };
  await refreshOpenEscalations(pool, clusterId);
  const faults = await openFaultHealth(pool, clusterId);
  const version = createHash("sha256").update(JSON.stringify(faults)).digest("base64url").slice(0, 12);
  return { collected, version, faults };
}
