/** Server CPU layouts of the inventory: read one, store one (for a server or every server of its model), audited. */
import { and, asc, eq, inArray } from "drizzle-orm";
import { demoCpuLayouts } from "@/lib/affinity/demo";
import { readLayout, type CpuLayout, type LayoutReading } from "@/lib/affinity/layout";
import { notFound } from "@/lib/errors";
import type { Database } from "../client";
import { servers, serverCpuLayouts } from "../schema";
import type { CpuLayoutInput } from "../schema/server-cpu-layout/validation";
import { recordAudit, systemActor, type AuditActor } from "./audit";
import { findCluster } from "./clusters";

export interface StoredCpuLayout {
  readonly serverId: string;
  readonly model: string;
  readonly layout: CpuLayout | null;
  readonly lscpuText: string | null;
  readonly topoText: string | null;
  readonly updatedAt: string | null;
  readonly updatedBy: string | null;
}

async function findServer(db: Database, clusterIdOrSlug: string, serverId: string) {
  const cluster = await findCluster(db, clusterIdOrSlug);
  if (cluster === null) throw notFound(`no cluster ${JSON.stringify(clusterIdOrSlug)}`, { code: "unknown_cluster" });
  const [server] = await db
    .select({ serverId: servers.serverId, model: servers.model })
    .from(servers)
    .where(and(eq(servers.clusterId, cluster.id), eq(servers.serverId, serverId)))
    .limit(1);
  if (server === undefined) throw notFound(`no server ${JSON.stringify(serverId)} in cluster ${cluster.slug}`, { code: "unknown_server" });
  return { cluster, server };
}

export interface ServerLayoutEntry {
  readonly serverId: string;
  readonly model: string;
  readonly stored: boolean;
  readonly updatedAt: string | null;
}

/** Every server of a cluster with its model and whether a CPU layout is stored for it, in server id order. */
export async function listServerCpuLayouts(db: Database, clusterIdOrSlug: string): Promise<{ cluster: string; servers: ServerLayoutEntry[] }> {
  const cluster = await findCluster(db, clusterIdOrSlug);
  if (cluster === null) throw notFound(`no cluster ${JSON.stringify(clusterIdOrSlug)}`, { code: "unknown_cluster" });
  const rows = await db
    .select({ serverId: servers.serverId, model: servers.model, updatedAt: serverCpuLayouts.updatedAt })
    .from(servers)
    .leftJoin(serverCpuLayouts, and(eq(serverCpuLayouts.clusterId, servers.clusterId), eq(serverCpuLayouts.serverId, servers.serverId)))
    .where(eq(servers.clusterId, cluster.id))
    .orderBy(asc(servers.serverId));
  return {
    cluster: cluster.slug,
    servers: rows.map((row) => ({ serverId: row.serverId, model: row.model, stored: row.updatedAt !== null, updatedAt: row.updatedAt?.toISOString() ?? null })),
  };
}

/** The stored layout of a server; `layout` is null when none was stored yet. */
export async function getServerCpuLayout(db: Database, clusterIdOrSlug: string, serverId: string): Promise<StoredCpuLayout> {
  const { cluster, server } = await findServer(db, clusterIdOrSlug, serverId);
  const [row] = await db
    .select()
    .from(serverCpuLayouts)
    .where(and(eq(serverCpuLayouts.clusterId, cluster.id), eq(serverCpuLayouts.serverId, serverId)))
    .limit(1);
  return {
    serverId: server.serverId,
    model: server.model,
    layout: row?.layout ?? null,
    lscpuText: row?.lscpuText ?? null,
    topoText: row?.topoText ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedBy ?? null,
  };
}

/**
 * Reads the texts (a text without NUMA nodes is refused by readLayout) and stores the layout for the server, or for
 * every server of its model in the cluster, in one transaction with one audit entry.
 */
export async function saveServerCpuLayout(
  db: Database,
  clusterIdOrSlug: string,
  serverId: string,
  input: CpuLayoutInput,
  actor: AuditActor,
): Promise<{ reading: LayoutReading; serverIds: string[] }> {
  const { cluster, server } = await findServer(db, clusterIdOrSlug, serverId);
  const reading = readLayout(input.lscpu, input.topo);
  const topoText = input.topo === undefined || input.topo.trim() === "" ? null : input.topo;
  return db.transaction(async (tx) => {
    const targets =
      input.scope === "model"
        ? (await tx.select({ serverId: servers.serverId }).from(servers).where(and(eq(servers.clusterId, cluster.id), eq(servers.model, server.model)))).map((row) => row.serverId)
        : [server.serverId];
    const previous = await tx
      .select({ serverId: serverCpuLayouts.serverId })
      .from(serverCpuLayouts)
      .where(and(eq(serverCpuLayouts.clusterId, cluster.id), inArray(serverCpuLayouts.serverId, targets)));
    const values = { lscpuText: input.lscpu, topoText, layout: reading.layout, updatedAt: new Date(), updatedBy: actor.name ?? null };
    await tx
      .insert(serverCpuLayouts)
      .values(targets.map((target) => ({ clusterId: cluster.id, serverId: target, ...values })))
      .onConflictDoUpdate({ target: [serverCpuLayouts.clusterId, serverCpuLayouts.serverId], set: values });
    await recordAudit(tx, {
      actor,
      action: "server.cpu_layout_update",
      target: { type: "server", id: `${cluster.slug}/${server.serverId}` },
      details: {
        scope: input.scope,
        model: server.model,
        servers: targets.length,
        replaced: previous.length,
        numaNodes: reading.layout.numaNodes.length,
        cpus: reading.layout.onlineCpus.length,
        npus: reading.layout.npus.length,
      },
    });
    return { reading, serverIds: targets };
  });
}

/**
 * The demo seed's CPU layouts (lib/affinity/demo.ts). Runs once: a database with any stored layout is left alone.
 * Returns the number of servers given a layout.
 */
export async function seedDemoCpuLayouts(db: Database): Promise<number> {
  if ((await db.$count(serverCpuLayouts)) > 0) return 0;
  let stored = 0;
  for (const demo of demoCpuLayouts()) {
    if ((await findCluster(db, demo.cluster)) === null) continue;
    const saved = await saveServerCpuLayout(db, demo.cluster, demo.serverId, { lscpu: demo.lscpu, topo: demo.topo, scope: "server" }, systemActor);
    stored += saved.serverIds.length;
  }
  return stored;
}
