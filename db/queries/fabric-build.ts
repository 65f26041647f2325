/**
 * A cluster's fabric profile and the fabric derived from it: planes, switches and links written whenever the
 * inventory is (lib/fabric/derive.ts derives them), and again when the profile is chosen. The reads are in ./fabric.ts.
 */
import { asc, eq, sql } from "drizzle-orm";
import { countFabric, deriveFabric, type DerivedFabric, type FabricCounts, type FabricServer } from "@/lib/fabric/derive";
import { defaultProfileFor, findProfile, type FabricProfile } from "@/lib/fabric/profiles";
import { DomainError } from "@/lib/errors";
import type { Database } from "../client";
import { clusters, fabricLinks, fabricPlanes, fabricSwitches, npus, servers, superPods } from "../schema";
import { recordAudit, type AuditActor } from "./audit";
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

export async function profileOf(tx: Transaction, clusterId: number): Promise<{ profile: FabricProfile | null; defaulted: boolean }> {
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
