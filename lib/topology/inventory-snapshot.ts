import type { ClusterSpec, DieRef, DieSpec, LinkSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";
import { linkKinds, type LinkKind, type ServerModel } from "@/lib/inventory/vocabulary";

/**
 * A cluster's inventory as the topology index needs it (no "2.0" network levels), in columns: what
 * db/queries/inventory-snapshot.ts stores per inventory revision and a server process reads in one value when it
 * has no index of that revision. Columns of numbers parse into packed arrays with no object per die or link, so a
 * 524,288-NPU SuperCluster's half a million dies and million links cost a few arrays, not a few million rows.
 *
 * Order is the rows' order in loadClusterInventory (db/queries/topology.ts): super pods and servers by position,
 * dies by server row, NPU index and die index, links by row id; so the inventory decoded here equals the one read
 * from the rows (db/queries/inventory-snapshot.int.test.ts).
 */
export interface InventorySnapshot {
  /** How `links` holds its ends (1: places, 2: differences); every other column is the same in both. */
  format: 1 | 2;
  superPodIds: string[];
  /** Per server: server_id, host IP, model, super_pod_id. */
  servers: [string, string | null, ServerModel, string | null][];
  dies: {
    /** The die's server, as its place in `servers`. */
    server: number[];
    npuIndex: number[];
    deviceId: number[];
    dieIndex: (0 | 1)[];
    superDeviceId: (number | null)[];
    deviceIp: (string | null)[];
    devicePort: (number | null)[];
    backupDeviceIp: (string | null)[];
    backupDevicePort: (number | null)[];
    hostPort: (number | null)[];
  };
  /** The link kinds `links.kind` points into. */
  kinds: LinkKind[];
  /**
   * Ends as places in `dies` (format 1), or as differences (format 2, what is stored): `source` from the previous
   * link's source (the first from 0) and `target` from its own source. Most links join nearby dies, so the differences
   * are a digit or two: a 524,288-NPU plain cluster's 2.4 million links were 44 of its snapshot's 79 MB of JSON, all
   * of which PostgreSQL decompresses and the server reads and parses before a fresh process's first view.
   */
  links: { kind: number[]; source: number[]; target: number[] };
}

/** The format db/queries/inventory-snapshot.ts stores; a snapshot of any of `readableSnapshotFormats` is read. */
export const inventorySnapshotFormat = 2;
export const readableSnapshotFormats: readonly number[] = [1, 2];

/** A snapshot's link ends as places in `dies`, whichever format holds them. */
export function linkEndsOf(snapshot: Pick<InventorySnapshot, "format" | "links">): { source: ArrayLike<number>; target: ArrayLike<number> } {
  const { source, target } = snapshot.links;
  if (snapshot.format === 1) return { source, target };
  const from = new Uint32Array(source.length);
  const to = new Uint32Array(source.length);
  let at = 0;
  for (let i = 0; i < source.length; i++) {
    at += source[i]!;
    from[i] = at;
    to[i] = at + target[i]!;
  }
  return { source: from, target: to };
}

/** The inventory a snapshot holds, in the shape loadClusterInventory gives (without network levels). */
export function inventoryFromSnapshot(snapshot: InventorySnapshot): Pick<ClusterSpec, "superPodIds" | "servers" | "links"> {
  if (!readableSnapshotFormats.includes(snapshot.format)) throw new Error(`unknown inventory snapshot format ${String(snapshot.format)}`);
  const servers: ServerSpec[] = snapshot.servers.map(([serverId, hostIp, model, superPodId]) => ({ serverId, hostIp, model, superPodId, npus: [] }));
  const { dies } = snapshot;
  const count = dies.server.length;
  // One end object per die, shared by all its links (they are only read), as loadClusterInventory does.
  const ends: DieRef[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const server = servers[dies.server[i]!]!;
    const npuIndex = dies.npuIndex[i]!;
    // A server's dies come together and by NPU index: its NPU is its last one, or a new one.
    let npu: NpuSpec | undefined = server.npus[server.npus.length - 1];
    if (!npu || npu.npuIndex !== npuIndex) {
      npu = { npuIndex, dies: [] };
      server.npus.push(npu);
    }
    const die: DieSpec = {
      deviceId: dies.deviceId[i]!,
      dieIndex: dies.dieIndex[i]!,
      superDeviceId: dies.superDeviceId[i]!,
      deviceIp: dies.deviceIp[i]!,
      devicePort: dies.devicePort[i]!,
      backupDeviceIp: dies.backupDeviceIp[i]!,
      backupDevicePort: dies.backupDevicePort[i]!,
      hostPort: dies.hostPort[i]!,
    };
    npu.dies.push(die);
    ends[i] = { serverId: server.serverId, deviceId: die.deviceId };
  }
  const { kind } = snapshot.links;
  const { source, target } = linkEndsOf(snapshot);
  const links: LinkSpec[] = new Array(kind.length);
  for (let i = 0; i < kind.length; i++) links[i] = { kind: snapshot.kinds[kind[i]!]!, source: ends[source[i]!]!, target: ends[target[i]!]! };
  return { superPodIds: snapshot.superPodIds, servers, links };
}

/**
 * The snapshot of an inventory read from the rows or given whole (the inverse of inventoryFromSnapshot): what the
 * topology index is built from either way. NPUs by NPU index and their dies by die index, as the snapshot lists them;
 * a link to a die the inventory does not have is left out.
 */
export function snapshotOfInventory(spec: Pick<ClusterSpec, "superPodIds" | "servers" | "links">): InventorySnapshot {
  const dies: InventorySnapshot["dies"] = { server: [], npuIndex: [], deviceId: [], dieIndex: [], superDeviceId: [], deviceIp: [], devicePort: [], backupDeviceIp: [], backupDevicePort: [], hostPort: [] };
  // Per server id, device id: the die's place (a later twin wins, as a map of die ids would have it).
  const positions = new Map<string, Map<number, number>>();
  spec.servers.forEach((server, s) => {
    const own = positions.get(server.serverId) ?? new Map<number, number>();
    positions.set(server.serverId, own);
    for (const npu of [...server.npus].sort((a, b) => a.npuIndex - b.npuIndex)) {
      for (const die of [...npu.dies].sort((a, b) => a.dieIndex - b.dieIndex)) {
        own.set(die.deviceId, dies.server.length);
        dies.server.push(s);
        dies.npuIndex.push(npu.npuIndex);
        dies.deviceId.push(die.deviceId);
        dies.dieIndex.push(die.dieIndex);
        dies.superDeviceId.push(die.superDeviceId);
        dies.deviceIp.push(die.deviceIp);
        dies.devicePort.push(die.devicePort);
        dies.backupDeviceIp.push(die.backupDeviceIp);
        dies.backupDevicePort.push(die.backupDevicePort);
        dies.hostPort.push(die.hostPort);
      }
    }
  });
  const links: InventorySnapshot["links"] = { kind: [], source: [], target: [] };
  for (const link of spec.links) {
    const source = positions.get(link.source.serverId)?.get(link.source.deviceId);
    const target = positions.get(link.target.serverId)?.get(link.target.deviceId);
    if (source === undefined || target === undefined) continue;
    links.kind.push(linkKinds.indexOf(link.kind));
    links.source.push(source);
    links.target.push(target);
  }
  return {
    // Kept in memory, never stored: the ends as places.
    format: 1,
    superPodIds: spec.superPodIds,
    servers: spec.servers.map((server) => [server.serverId, server.hostIp, server.model, server.superPodId]),
    dies,
    kinds: [...linkKinds],
    links,
  };
}
