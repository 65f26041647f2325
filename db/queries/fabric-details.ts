import { sql } from "drizzle-orm";
import { parseSwitchKey } from "@/lib/fabric/derive";
import { switchImpactOf } from "@/lib/topology/details";
import type { TopologyIndex } from "@/lib/topology/inventory-index";
import type { NodeDetails, NodeKind, SwitchImpact } from "@/lib/topology/model";
import { planeNode, switchNode } from "@/lib/topology/nodes";
import { TopologyNotFoundError } from "@/lib/topology/view";
import type { Database } from "../client";
import { parameterPlaneOf, podBusPlanes, serverNodeChips } from "./fabric";
import { arrayLiteral } from "./pg-array";

/** Running or waiting jobs with ranks on these servers, with how many ranks each has there. */
async function jobsOnServers(db: Pick<Database, "execute">, clusterId: number, serverIds: readonly string[]) {
  if (serverIds.length === 0) return [];
  const { rows } = await db.execute<{ id: number; name: string; namespace: string; server_id: string; ranks: number }>(sql`
    select j.id, j.name, j.namespace, r.server_id, count(*)::int as ranks
    from jobs j join job_ranks r on r.job_id = j.id
    where j.cluster_id = ${clusterId} and j.state in ('pending', 'running') and r.server_id = any(${arrayLiteral(serverIds)}::text[])
    group by j.id, j.name, j.namespace, r.server_id`);
  return rows;
}

/**
 * What a switch failure takes down (lib/topology/details.ts switchImpactOf) over the stored fabric of its pod, with
 * the jobs on the servers it reaches: a job with a rank on the cut server is cut, one elsewhere in the pod degraded.
 */
async function switchImpact(db: Database, clusterId: number, index: TopologyIndex, id: string, podId: string): Promise<SwitchImpact | null> {
  const planes = await podBusPlanes(db, clusterId, podId);
  const first = planes[0];
  const perServer = first && first.servers > 0 ? first.uplinks / first.servers : null;
  const radius = switchImpactOf(index, id, { planes: planes.length, uplinksPerServerPerPlane: perServer });
  if (!radius) return null;
  const effectOf = new Map(radius.servers.map((s) => [s.serverId, s.effect]));
  const jobs = new Map<number, SwitchImpact["jobs"][number]>();
  for (const row of await jobsOnServers(db, clusterId, radius.servers.map((s) => s.serverId))) {
    const job = jobs.get(row.id) ?? { id: row.id, name: row.name, namespace: row.namespace, effect: "degraded" as const, ranks: 0 };
    job.ranks += row.ranks;
    if (effectOf.get(row.server_id) === "cut") job.effect = "cut";
    jobs.set(row.id, job);
  }
  const sorted = [...jobs.values()].sort((a, b) => (a.effect === b.effect ? a.name.localeCompare(b.name) : a.effect === "cut" ? -1 : 1));
  return { ...radius, jobs: sorted };
}

/**
 * The stored fabric's part of a fabric node's details: a switch's ports and uplinks and its blast radius, the
 * parameter plane's shape and ports. A switch or plane the stored fabric does not have is no node of this cluster.
 */
export async function withStoredFabric(db: Database, clusterId: number, index: TopologyIndex, kind: NodeKind, id: string, details: NodeDetails): Promise<NodeDetails> {
  const node = details.node;
  if (kind === "plane" && node.planeKind === "parameter") {
    const stored = await parameterPlaneOf(db, clusterId);
    if (!stored) throw new TopologyNotFoundError("node", id);
    const servers = node.counts?.servers ?? 0;
    const ports = node.superPodId ? (stored.servers > 0 ? Math.round((stored.ports * servers) / stored.servers) : 0) : stored.ports;
    return { ...details, node: { ...node, shape: stored.shape, ports } };
  }
  if (kind === "plane") {
    // The plane's switches and uplinks as stored.
    const stored = (await podBusPlanes(db, clusterId, node.superPodId ?? "")).find((plane) => plane.key === id);
    if (!stored) throw new TopologyNotFoundError("node", id);
    return { ...details, node: planeNode(stored, node.superPodId ?? "", node) };
  }
  if (kind !== "switch") return details;
  const ref = parseSwitchKey(id);
  const podId = node.superPodId ?? null;
  if (!ref || podId === null) throw new TopologyNotFoundError("node", id);
  if (ref.kind === "node-chip") {
    const chip = (await serverNodeChips(db, clusterId, ref.serverId)).find((c) => c.chipId === ref.chipId);
    if (!chip) throw new TopologyNotFoundError("node", id);
    details = { ...details, node: switchNode(chip, ref.serverId, podId, node) };
  } else {
    const plane = (await podBusPlanes(db, clusterId, podId)).find((p) => p.index === ref.plane);
    if (!plane || ref.index >= plane.switches) throw new TopologyNotFoundError("node", id);
    details = { ...details, node: { ...node, ports: plane.servers > 0 ? plane.uplinks / plane.switches : null } };
  }
  return { ...details, impact: await switchImpact(db, clusterId, index, id, podId) };
}
