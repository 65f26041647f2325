import { asc, eq, sql } from "drizzle-orm";
import { countFabric, deriveFabric, parameterPlaneKey, type DerivedFabric, type FabricCounts, type FabricServer } from "@/lib/fabric/derive";
import { defaultProfileFor, findProfile, profileFacts, type FabricProfile } from "@/lib/fabric/profiles";
import { DomainError } from "@/lib/errors";
import { SharedAnswers } from "@/lib/shared-answers";
import type { ParameterPlane, PodBusPlane, ServerNodeChip, ViewFabric } from "@/lib/topology/nodes";
import type { Database } from "../client";
import { clusters, fabricLinks, fabricPlanes, fabricSwitches, npus, servers, superPods } from "../schema";
import { recordAudit, type AuditActor } from "./audit";
import { getClusterOrThrow } from "./clusters";
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
export async function clusterFabricProfile(db: Database, clusterId: number): Promise<FabricProfile | null> {
  return (await db.transaction((tx) => profileOf(tx, clusterId))).profile;
}

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
    .select({ ref: servers.id, serverId: servers.serverId, superPodId: superPods.superPodId, npuIndex: npus.npuIndex })
    .from(servers)
    .leftJoin(superPods, eq(superPods.id, servers.superPodRef))
    .leftJoin(npus, eq(npus.serverRef, servers.id))
    .where(eq(servers.clusterId, clusterId))
    .orderBy(asc(servers.position), asc(npus.npuIndex));
  const byServer = new Map<string, FabricServer & { ref: number }>();
  for (const row of rows) {
    let server = byServer.get(row.serverId);
    if (!server) {
      server = { ref: row.ref, serverId: row.serverId, superPodId: row.superPodId, npuIndexes: [] };
      byServer.set(row.serverId, server);
    }
    if (row.npuIndex !== null) (server.npuIndexes as number[]).push(row.npuIndex);
  }
  const fabric = deriveFabric(profile, [...byServer.values()]);
  await insertFabric(tx, clusterId, fabric, (serverId) => byServer.get(serverId)!.ref);
  return { profileId: profile.id, defaulted, counts: countFabric(fabric), gaps: fabric.gaps };
}

/** One array parameter per column of `rows` (`{…}` literal, see pg-array.ts): a statement's size does not grow in parameters. */
function columnOf<Row>(rows: readonly Row[]) {
  return (pick: (row: Row) => string | number | null) => arrayLiteral(rows.map(pick));
}

/** The id of every key a statement inserted (`returning id, key`); a key it did not insert is a bug, said loudly. */
function refsByKey(rows: readonly Record<string, unknown>[], what: string): (key: string) => number {
  const refs = new Map(rows.map((row) => [row.key as string, row.id as number]));
  return (key) => {
    const ref = refs.get(key);
    if (ref === undefined) throw new Error(`fabric rebuild: no ${what} ${key} was written`);
    return ref;
  };
}

/** Fabric links per insert statement (those of 1,024 A3 servers' node chips, about). */
const LINKS_PER_STATEMENT = 65_536;

/**
 * Writes a derived fabric in set-based statements, one per table (the links a batch at a time), each over array
 * parameters (unnest); each returns its ids by key for the next. Super pods are resolved by a join in SQL (a few
 * rows); the switches' and links' references travel as int arrays: joining 65,536 links to their switches by text
 * key in SQL measured slower (index probes per row, a sort spilling to disk) and depended on fresh statistics.
 */
async function insertFabric(tx: Transaction, clusterId: number, fabric: DerivedFabric, serverRef: (serverId: string) => number): Promise<void> {
  if (!fabric.planes.length) return;
  const plane = columnOf(fabric.planes);
  const { rows: planeRows } = await tx.execute(sql`
    insert into fabric_planes (cluster_id, super_pod_ref, key, kind, plane_index, shape)
    select ${clusterId}, sp.id, u.key, u.kind::fabric_plane_kind, u.plane_index, u.shape
    from unnest(${plane((p) => p.key)}::text[], ${plane((p) => p.kind)}::text[], ${plane((p) => p.index)}::int[],
      ${plane((p) => p.shape)}::text[], ${plane((p) => p.superPodId)}::text[]) with ordinality
      as u(key, kind, plane_index, shape, super_pod_id, n)
    left join super_pods sp on sp.cluster_id = ${clusterId} and sp.super_pod_id = u.super_pod_id
    order by u.n
    returning id, key`);
  const planeRef = refsByKey(planeRows, "plane");
  let switchRef: (key: string) => number = () => {
    throw new Error("fabric rebuild: a link names a switch but no switch was written");
  };
  if (fabric.switches.length) {
    const sw = columnOf(fabric.switches);
    const { rows: switchRows } = await tx.execute(sql`
      insert into fabric_switches (cluster_id, plane_ref, key, kind, switch_index, server_ref, ports)
      select ${clusterId}, u.plane_ref, u.key, u.kind::fabric_switch_kind, u.switch_index, u.server_ref, u.ports
      from unnest(${sw((x) => planeRef(x.planeKey))}::int[], ${sw((x) => x.key)}::text[], ${sw((x) => x.kind)}::text[],
        ${sw((x) => x.index)}::int[], ${sw((x) => (x.serverId === null ? null : serverRef(x.serverId)))}::int[], ${sw((x) => x.ports)}::int[])
        as u(plane_ref, key, kind, switch_index, server_ref, ports)
      returning id, key`);
    switchRef = refsByKey(switchRows, "switch");
  }
  // Links are the bulk (64 per A3 server), written LINKS_PER_STATEMENT at a time: the array parameters of one
  // statement are built in memory, and for all 4.2M links of a 524,288-NPU A3 cluster at once that was gigabytes.
  for (let at = 0; at < fabric.links.length; at += LINKS_PER_STATEMENT) {
    const link = columnOf(fabric.links.slice(at, at + LINKS_PER_STATEMENT));
    await tx.execute(sql`
      insert into fabric_links (cluster_id, plane_ref, kind, switch_ref, peer_switch_ref, server_ref, npu_index, ports)
      select ${clusterId}, u.plane_ref, u.kind::fabric_link_kind, u.switch_ref, u.peer_switch_ref, u.server_ref, u.npu_index, u.ports
      from unnest(${link((l) => planeRef(l.planeKey))}::int[], ${link((l) => l.kind)}::text[],
        ${link((l) => (l.switchKey === null ? null : switchRef(l.switchKey)))}::int[],
        ${link((l) => (l.peerSwitchKey === null ? null : switchRef(l.peerSwitchKey)))}::int[],
        ${link((l) => serverRef(l.serverId))}::int[], ${link((l) => l.npuIndex)}::int[], ${link((l) => l.ports)}::int[])
        as u(plane_ref, kind, switch_ref, peer_switch_ref, server_ref, npu_index, ports)`);
  }
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
