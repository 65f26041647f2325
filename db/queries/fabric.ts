import { asc, eq, sql } from "drizzle-orm";
import { countFabric, deriveFabric, type FabricCounts, type FabricServer } from "@/lib/fabric/derive";
import { defaultProfileFor, findProfile, profileFacts, type FabricProfile } from "@/lib/fabric/profiles";
import { DomainError } from "@/lib/errors";
import type { PodBusPlane } from "@/lib/topology/nodes";
import type { Database } from "../client";
import { clusters, fabricLinks, fabricPlanes, fabricSwitches, npus, servers, superPods } from "../schema";
import { recordAudit, type AuditActor } from "./audit";
import { getClusterOrThrow } from "./clusters";
import { insertInChunks } from "./insert-chunks";
import type { Transaction } from "./inventory";
import { arrayLiteral } from "./pg-array";

export interface FabricBuild {
  /** The profile the fabric was derived from; null when the cluster has none (no elements are stored then). */
  profileId: string | null;
  /** True when the cluster names no profile and got the default for its servers' model. */
  defaulted: boolean;
  counts: FabricCounts;
  gaps: string[];
}

/** The cluster's chosen profile, else the shipped default for its servers' model (null when there is none). */
async function profileOf(tx: Transaction, clusterId: number): Promise<{ profile: FabricProfile | null; defaulted: boolean }> {
  const [cluster] = await tx.select({ fabricProfile: clusters.fabricProfile }).from(clusters).where(eq(clusters.id, clusterId));
  if (cluster?.fabricProfile) {
    const chosen = findProfile(cluster.fabricProfile);
    if (chosen) return { profile: chosen, defaulted: false };
  }
  const models = await tx.selectDistinct({ model: servers.model }).from(servers).where(eq(servers.clusterId, clusterId));
  return { profile: defaultProfileFor(models.map((m) => m.model)), defaulted: true };
}

/**
 * Replaces a cluster's stored fabric (planes, switches, links) with the one its profile derives from the servers
 * now in the inventory, inside the caller's transaction. Called whenever an inventory is written, and on demand.
 */
export async function rebuildFabric(tx: Transaction, clusterId: number): Promise<FabricBuild> {
  const { profile, defaulted } = await profileOf(tx, clusterId);
  // Children first: one indexed delete per table instead of a cascade trigger per row.
  await tx.delete(fabricLinks).where(eq(fabricLinks.clusterId, clusterId));
  await tx.delete(fabricSwitches).where(eq(fabricSwitches.clusterId, clusterId));
  await tx.delete(fabricPlanes).where(eq(fabricPlanes.clusterId, clusterId));
  if (!profile) return { profileId: null, defaulted, counts: countFabric({ planes: [], switches: [], links: [] }), gaps: [] };

  const rows = await tx
    .select({ ref: servers.id, serverId: servers.serverId, superPodId: superPods.superPodId, podRef: servers.superPodRef, npuIndex: npus.npuIndex })
    .from(servers)
    .leftJoin(superPods, eq(superPods.id, servers.superPodRef))
    .leftJoin(npus, eq(npus.serverRef, servers.id))
    .where(eq(servers.clusterId, clusterId))
    .orderBy(asc(servers.position), asc(npus.npuIndex));
  const byServer = new Map<string, FabricServer & { ref: number }>();
  const podRefs = new Map<string, number>();
  for (const row of rows) {
    let server = byServer.get(row.serverId);
    if (!server) {
      server = { ref: row.ref, serverId: row.serverId, superPodId: row.superPodId, npuIndexes: [] };
      byServer.set(row.serverId, server);
    }
    if (row.npuIndex !== null) (server.npuIndexes as number[]).push(row.npuIndex);
    if (row.superPodId !== null && row.podRef !== null) podRefs.set(row.superPodId, row.podRef);
  }
  const fabric = deriveFabric(profile, [...byServer.values()]);
  const serverRef = (serverId: string) => byServer.get(serverId)!.ref;

  const planeRows = await insertInChunks(
    fabric.planes.map((p) => ({
      clusterId,
      superPodRef: p.superPodId === null ? null : podRefs.get(p.superPodId)!,
      key: p.key,
      kind: p.kind,
      planeIndex: p.index,
      shape: p.shape,
    })),
    (chunk) => tx.insert(fabricPlanes).values(chunk).returning({ id: fabricPlanes.id, key: fabricPlanes.key }),
  );
  const planeRef = new Map(planeRows.map((row) => [row.key, row.id]));
  const switchRows = await insertInChunks(
    fabric.switches.map((s) => ({
      clusterId,
      planeRef: planeRef.get(s.planeKey)!,
      key: s.key,
      kind: s.kind,
      switchIndex: s.index,
      serverRef: s.serverId === null ? null : serverRef(s.serverId),
      ports: s.ports,
    })),
    (chunk) => tx.insert(fabricSwitches).values(chunk).returning({ id: fabricSwitches.id, key: fabricSwitches.key }),
  );
  const switchRef = new Map(switchRows.map((row) => [row.key, row.id]));
  // Links are the bulk (3,072 for one 48-server A3 pod): one statement over arrays, not parameters per row.
  if (fabric.links.length) {
    const links = fabric.links;
    const column = <T extends string | number | null>(pick: (l: (typeof links)[number]) => T) => arrayLiteral(links.map(pick));
    await tx.execute(sql`
      insert into fabric_links (cluster_id, plane_ref, kind, switch_ref, peer_switch_ref, server_ref, npu_index, ports)
      select ${clusterId}, u.plane_ref, u.kind::fabric_link_kind, u.switch_ref, u.peer_switch_ref, u.server_ref, u.npu_index, u.ports
      from unnest(${column((l) => planeRef.get(l.planeKey)!)}::int[], ${column((l) => l.kind)}::text[],
        ${column((l) => (l.switchKey === null ? null : switchRef.get(l.switchKey)!))}::int[],
        ${column((l) => (l.peerSwitchKey === null ? null : switchRef.get(l.peerSwitchKey)!))}::int[],
        ${column((l) => serverRef(l.serverId))}::int[], ${column((l) => l.npuIndex)}::int[], ${column((l) => l.ports)}::int[])
        as u(plane_ref, kind, switch_ref, peer_switch_ref, server_ref, npu_index, ports)`);
  }
  return { profileId: profile.id, defaulted, counts: countFabric(fabric), gaps: fabric.gaps };
}

/** Chooses a cluster's fabric profile (null: back to the default for its servers) and rebuilds its fabric, audited. */
export async function setFabricProfile(db: Database, clusterId: number, profileId: string | null, actor: AuditActor): Promise<FabricBuild> {
  if (profileId !== null && !findProfile(profileId)) {
    throw new DomainError("invalid", `no fabric profile ${JSON.stringify(profileId)}`, { code: "unknown_fabric_profile" });
  }
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ fabricProfile: clusters.fabricProfile }).from(clusters).where(eq(clusters.id, clusterId)).for("update");
    if (!before) throw new DomainError("not_found", `no cluster ${clusterId}`);
    await tx.update(clusters).set({ fabricProfile: profileId, updatedAt: new Date() }).where(eq(clusters.id, clusterId));
    const build = await rebuildFabric(tx, clusterId);
    await recordAudit(tx, {
      actor,
      action: "cluster.fabric_profile",
      target: { type: "cluster", id: clusterId },
      details: { from: before.fabricProfile, to: profileId, used: build.profileId, counts: build.counts },
    });
    return build;
  });
}

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
      (select count(distinct l.server_ref)::int from fabric_links l where l.plane_ref = p.id) as servers,
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
