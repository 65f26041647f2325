import { sql } from "drizzle-orm";
import type { ClusterSummary } from "../schema/cluster/validation";
import type { ClusterSpec } from "@/lib/inventory/model";
import type { Database } from "../client";
import { clusters, deviceNetAddresses, devices, links, npus, servers, superPods } from "../schema";
import { rebuildFabric } from "./fabric";
import { insertInChunks } from "./insert-chunks";


/** Writes a whole cluster inventory in one transaction and returns the new cluster's id. */
export async function insertCluster(db: Database, spec: ClusterSpec): Promise<number> {
  return db.transaction(async (tx) => {
    const [cluster] = await tx
      .insert(clusters)
      .values({ slug: spec.slug, name: spec.name, mode: spec.mode, description: spec.description })
      .returning({ id: clusters.id });
    const clusterId = cluster!.id;
    await insertInventory(tx, clusterId, spec);
    return clusterId;
  });
}

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Writes super pods, servers, NPUs, dies and links of an (empty) cluster, then derives its fabric (planes, switches,
 * links: db/queries/fabric.ts) from the cluster's profile, inside the caller's transaction.
 */
export async function insertInventory(
  tx: Transaction,
  clusterId: number,
  spec: Pick<ClusterSpec, "superPodIds" | "servers" | "links">,
): Promise<void> {
  {
    const podRows = spec.superPodIds.length
      ? await tx
          .insert(superPods)
          .values(spec.superPodIds.map((superPodId, position) => ({ clusterId, superPodId, position })))
          .returning({ id: superPods.id, superPodId: superPods.superPodId })
      : [];
    const podRef = new Map(podRows.map((row) => [row.superPodId, row.id]));

    const serverRows = await insertInChunks(
      spec.servers.map((server, position) => ({
        clusterId,
        superPodRef: server.superPodId === null ? null : requireRef(podRef, server.superPodId, "super pod"),
        serverId: server.serverId,
        hostIp: server.hostIp,
        model: server.model,
        position,
      })),
      (chunk) => tx.insert(servers).values(chunk).returning({ id: servers.id, serverId: servers.serverId }),
    );
    const serverRef = new Map(serverRows.map((row) => [row.serverId, row.id]));

    const npuValues = spec.servers.flatMap((server) =>
      server.npus.map((npu) => ({ serverRef: serverRef.get(server.serverId)!, npuIndex: npu.npuIndex })),
    );
    const npuRows = await insertInChunks(npuValues, (chunk) =>
      tx.insert(npus).values(chunk).returning({ id: npus.id, serverRef: npus.serverRef, npuIndex: npus.npuIndex }),
    );
    const npuRef = new Map(npuRows.map((row) => [`${row.serverRef}/${row.npuIndex}`, row.id]));

    const deviceValues = spec.servers.flatMap((server) => {
      const ref = serverRef.get(server.serverId)!;
      return server.npus.flatMap((npu) =>
        npu.dies.map(({ netLevels: _levels, ...die }) => ({ ...die, clusterId, serverRef: ref, npuRef: npuRef.get(`${ref}/${npu.npuIndex}`)! })),
      );
    });
    const deviceRows = await insertInChunks(deviceValues, (chunk) =>
      tx
        .insert(devices)
        .values(chunk)
        .returning({ id: devices.id, serverRef: devices.serverRef, deviceId: devices.deviceId }),
    );
    const deviceRef = new Map(deviceRows.map((row) => [`${row.serverRef}/${row.deviceId}`, row.id]));
    const dieRef = (serverId: string, deviceId: number) =>
      requireRef(deviceRef, `${requireRef(serverRef, serverId, "server")}/${deviceId}`, "die");

    // The network levels of "2.0" ranks: a row per address of each level.
    const addressValues = spec.servers.flatMap((server) =>
      server.npus.flatMap((npu) =>
        npu.dies.flatMap((die) =>
          (die.netLevels ?? []).flatMap((level) =>
            level.addresses.map((address, position) => ({
              clusterId,
              deviceRef: dieRef(server.serverId, die.deviceId),
              netLayer: level.netLayer,
              netInstanceId: level.netInstanceId,
              netType: level.netType,
              position,
              addrType: address.addrType,
              addr: address.addr,
              ports: address.ports,
              planeId: address.planeId,
            })),
          ),
        ),
      ),
    );
    await insertInChunks(addressValues, (chunk) => tx.insert(deviceNetAddresses).values(chunk).returning({ id: deviceNetAddresses.id }));

    const linkValues = spec.links.map((link) => {
      const a = dieRef(link.source.serverId, link.source.deviceId);
      const b = dieRef(link.target.serverId, link.target.deviceId);
      return { clusterId, kind: link.kind, sourceDevice: Math.min(a, b), targetDevice: Math.max(a, b) };
    });
    await insertInChunks(linkValues, (chunk) => tx.insert(links).values(chunk).returning({ id: links.id }));
  }
  await rebuildFabric(tx, clusterId);
}

function requireRef<K>(refs: Map<K, number>, key: K, what: string): number {
  const ref = refs.get(key);
  if (ref === undefined) throw new Error(`the inventory names a ${what} it does not define: ${String(key)}`);
  return ref;
}

/** Every cluster with its counts per level and per server model, in one round trip. */
export async function listClusterSummaries(db: Database): Promise<ClusterSummary[]> {
  const result = await db.execute<{
    id: number;
    slug: string;
    name: string;
    mode: ClusterSummary["mode"];
    super_pods: number;
    servers: number;
    npus: number;
    devices: number;
    servers_by_model: Record<string, number> | null;
  }>(sql`
    select c.id, c.slug, c.name, c.mode,
      (select count(*)::int from super_pods p where p.cluster_id = c.id) as super_pods,
      (select count(*)::int from servers s where s.cluster_id = c.id) as servers,
      (select count(*)::int from npus n join servers s on s.id = n.server_ref where s.cluster_id = c.id) as npus,
      (select count(*)::int from devices d where d.cluster_id = c.id) as devices,
      (select jsonb_object_agg(model, n) from (
         select model, count(*)::int as n from servers s where s.cluster_id = c.id group by model
       ) m) as servers_by_model
    from clusters c
    order by c.id`);
  return result.rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    mode: row.mode,
    superPods: row.super_pods,
    servers: row.servers,
    npus: row.npus,
    devices: row.devices,
    serversByModel: row.servers_by_model ?? {},
  }));
}
