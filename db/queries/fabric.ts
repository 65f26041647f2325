/** A cluster's stored fabric as the views read it; its profile and writing it are in ./fabric-build.ts. */
import { eq, sql } from "drizzle-orm";
import { parameterPlaneKey } from "@/lib/fabric/derive";
import { profileFacts } from "@/lib/fabric/profiles";
import { SharedAnswers } from "@/lib/shared-answers";
import type { ParameterPlane, PodBusPlane, ServerNodeChip, ViewFabric } from "@/lib/topology/nodes";
import type { Database } from "../client";
import { clusters, fabricPlanes, fabricSwitches, servers } from "../schema";
import type { AuditActor } from "./audit";
import { getClusterOrThrow } from "./clusters";
import { profileOf, setFabricProfile } from "./fabric-build";

/** A node-side bus chip of a server as stored: its plane and port count, by server ref and chip id (SwitchChipId). */
export interface StoredNodeChip {
  key: string;
  planeKey: string;
  ports: number | null;
  /** Optical ports from this chip to the bus switches of its plane. */
  uplinks: number;
}

/** The node chips of one server, by chip id: what a SwitchInfoCfg fault of that server can name. */
export async function nodeChipsOfServer(db: Pick<Database, "select">, clusterId: number, serverRef: number): Promise<Map<number, StoredNodeChip>> {
  const rows = await db
    .select({
      chipId: fabricSwitches.switchIndex,
      key: fabricSwitches.key,
      planeKey: fabricPlanes.key,
      ports: fabricSwitches.ports,
      uplinks: sql<number>`(select coalesce(sum(l.ports), 0)::int from fabric_links l where l.switch_ref = ${fabricSwitches.id} and l.kind = 'uplink')`,
    })
    .from(fabricSwitches)
    .innerJoin(fabricPlanes, eq(fabricPlanes.id, fabricSwitches.planeRef))
    .where(sql`${fabricSwitches.clusterId} = ${clusterId} and ${fabricSwitches.serverRef} = ${serverRef} and ${fabricSwitches.kind} = 'node-chip'`);
  return new Map(rows.map((r) => [r.chipId, { key: r.key, planeKey: r.planeKey, ports: r.ports, uplinks: r.uplinks }]));
}

/** One stored plane, with what a fault on it reaches: its switches, the servers attached, the open switch faults. */
export interface FabricPlaneSummary {
  key: string;
  kind: "bus" | "parameter";
  superPodId: string | null;
  shape: string | null;
  busSwitches: number;
  servers: number;
  /** Open switch-fault events on a node chip of this plane: the plane is degraded for every server attached to it. */
  openSwitchFaults: number;
}

export interface FabricView {
  cluster: string;
  /** The profile chosen for the cluster, or null (the servers' default is used). */
  chosen: string | null;
  profile: { id: string; name: string; generation: string } | null;
  /** Every number of the profile with its provenance and source. */
  facts: ReturnType<typeof profileFacts>;
  planes: FabricPlaneSummary[];
}

/** `GET /api/v1/clusters/{id}/fabric`: the cluster's profile, its numbers with their sources, and the stored planes. */
export async function loadFabric(db: Database, idOrSlug: string): Promise<FabricView> {
  const cluster = await getClusterOrThrow(db, idOrSlug);
  const { profile, chosen } = await db.transaction(async (tx) => {
    const [row] = await tx.select({ fabricProfile: clusters.fabricProfile }).from(clusters).where(eq(clusters.id, cluster.id));
    return { ...(await profileOf(tx, cluster.id)), chosen: row?.fabricProfile ?? null };
  });
  const { rows } = await db.execute<{ key: string; kind: "bus" | "parameter"; super_pod_id: string | null; shape: string | null; bus_switches: number; servers: number; open_faults: number }>(sql`
    select p.key, p.kind, sp.super_pod_id, p.shape,
      (select count(*)::int from fabric_switches s where s.plane_ref = p.id and s.kind = 'bus-switch') as bus_switches,
      (select count(distinct l.server_ref)::int from fabric_links l where l.cluster_id = p.cluster_id and l.plane_ref = p.id) as servers,
      (select count(*)::int from fault_events f where f.cluster_id = p.cluster_id and f.target_kind = 'switch'
         and f.ended_at is null and f.raw->'fabric'->>'plane' = p.key) as open_faults
    from fabric_planes p left join super_pods sp on sp.id = p.super_pod_ref
    where p.cluster_id = ${cluster.id}
    order by p.kind, sp.position nulls first, p.plane_index`);
  return {
    cluster: cluster.slug,
    chosen,
    profile: profile ? { id: profile.id, name: profile.name, generation: profile.generation } : null,
    facts: profile ? profileFacts(profile) : [],
    planes: rows.map((r) => ({
      key: r.key,
      kind: r.kind,
      superPodId: r.super_pod_id,
      shape: r.shape,
      busSwitches: r.bus_switches,
      servers: r.servers,
      openSwitchFaults: r.open_faults,
    })),
  };
}

/** `PUT /api/v1/clusters/{id}/fabric`: choose the profile (null: the default), rebuild the fabric, answer the new view. */
export async function putFabricProfile(db: Database, idOrSlug: string, profileId: string | null, actor: AuditActor): Promise<FabricView & { gaps: string[] }> {
  const cluster = await getClusterOrThrow(db, idOrSlug);
  const build = await setFabricProfile(db, cluster.id, profileId, actor);
  return { ...(await loadFabric(db, cluster.slug)), gaps: build.gaps };
}

/**
 * The bus planes of one super pod as the topology view draws them (lib/topology/nodes.ts `PodBusPlane`): per plane
 * its bus switches, the servers attached and their uplink ports in total. None when the cluster has no bus fabric.
 */
export async function podBusPlanes(db: Pick<Database, "execute">, clusterId: number, superPodId: string): Promise<PodBusPlane[]> {
  // The uplinks through the pod's servers (fabric_links_server_ref), not per plane: fabric_links has no plane index,
  // and a view of one pod should read its own links only (64 per A3 server), not the whole cluster's.
  const { rows } = await db.execute<{ key: string; plane_index: number; switches: number; servers: number; uplinks: number }>(sql`
    with pod_planes as (
      select p.id, p.key, p.plane_index, sp.id as pod_ref from fabric_planes p join super_pods sp on sp.id = p.super_pod_ref
      where p.cluster_id = ${clusterId} and p.kind = 'bus' and sp.super_pod_id = ${superPodId}
    ), uplinks as (
      select l.plane_ref, count(distinct l.server_ref)::int as servers, sum(l.ports)::int as uplinks from fabric_links l
      where l.kind = 'uplink' and l.server_ref in (select s.id from servers s where s.super_pod_ref = (select pod_ref from pod_planes limit 1))
      group by l.plane_ref
    ), switches as (
      select s.plane_ref, count(*)::int as switches from fabric_switches s
      where s.cluster_id = ${clusterId} and s.kind = 'bus-switch' and s.plane_ref in (select id from pod_planes) group by s.plane_ref
    )
    select pp.key, pp.plane_index, coalesce(w.switches, 0) as switches, coalesce(u.servers, 0) as servers, coalesce(u.uplinks, 0) as uplinks
    from pod_planes pp left join uplinks u on u.plane_ref = pp.id left join switches w on w.plane_ref = pp.id
    order by pp.plane_index`);
  return rows.map((r) => ({ key: r.key, index: r.plane_index, switches: r.switches, servers: r.servers, uplinks: r.uplinks }));
}

/**
 * The parameter plane's totals, by the plane's row id: a fabric's rows are never updated (a rebuild deletes them and
 * inserts new ones, with new ids), so totals kept for an id stay right. Counting them reads every RoCE link of the
 * plane, one per NPU: 0.7 s at 524,288 NPUs, which every cluster and server view paid before (scripts/bench/scale.ts).
 */
const parameterTotals = new SharedAnswers<{ servers: number; ports: number }>({ maxEntries: 64 });

/** The cluster's parameter plane as stored: its shape and the servers and RoCE ports attached; null without one. */
export async function parameterPlaneOf(db: Pick<Database, "execute">, clusterId: number): Promise<ParameterPlane | null> {
  const { rows } = await db.execute<{ id: number; shape: string | null }>(sql`
    select id, shape from fabric_planes where cluster_id = ${clusterId} and key = ${parameterPlaneKey}`);
  const plane = rows[0];
  if (!plane) return null;
  const totals = await parameterTotals.get(String(clusterId), () => String(plane.id), async () => {
    const { rows: counted } = await db.execute<{ servers: number; ports: number }>(sql`
      select count(distinct server_ref)::int as servers, coalesce(sum(ports), 0)::int as ports
      from fabric_links where cluster_id = ${clusterId} and plane_ref = ${plane.id}`);
    return { value: counted[0]!, size: 1, maxAgeMs: Infinity };
  });
  return { shape: plane.shape, servers: totals.servers, ports: totals.ports };
}

/** A server's node chips as stored, in chip order (none when the server is unknown or the fabric has no bus). */
export async function serverNodeChips(db: Pick<Database, "select">, clusterId: number, serverId: string): Promise<ServerNodeChip[]> {
  const [server] = await db.select({ ref: servers.id }).from(servers).where(sql`${servers.clusterId} = ${clusterId} and ${servers.serverId} = ${serverId}`);
  if (!server) return [];
  const chips = await nodeChipsOfServer(db, clusterId, server.ref);
  return [...chips].sort(([a], [b]) => a - b).map(([chipId, chip]) => ({ chipId, ...chip }));
}

/**
 * What a topology view draws of the stored fabric: a super pod's bus planes; a server's node chips, its pod's bus
 * planes and the parameter plane; the cluster's parameter plane. Part of the view's ETag (a new profile changes it
 * without a new inventory revision).
 */
export async function viewFabricOf(db: Database, clusterId: number, level: "cluster" | "superpod" | "server", id: string | null): Promise<ViewFabric> {
  if (level === "cluster") return { parameter: await parameterPlaneOf(db, clusterId) };
  if (id === null) return {};
  if (level === "superpod") return { busPlanes: await podBusPlanes(db, clusterId, id) };
  const { rows } = await db.execute<{ super_pod_id: string | null }>(sql`
    select sp.super_pod_id from servers s left join super_pods sp on sp.id = s.super_pod_ref where s.cluster_id = ${clusterId} and s.server_id = ${id}`);
  const podId = rows[0]?.super_pod_id ?? null;
  const [nodeChips, busPlanes, parameter] = await Promise.all([
    serverNodeChips(db, clusterId, id),
    podId === null ? Promise.resolve([]) : podBusPlanes(db, clusterId, podId),
    parameterPlaneOf(db, clusterId),
  ]);
  return { nodeChips, busPlanes, parameter };
}
