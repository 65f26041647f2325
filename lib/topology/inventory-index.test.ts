import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import type { ClusterSpec, DieSpec, ServerSpec } from "@/lib/inventory/model";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import { buildTopologyIndex, dieNodeId, indexFromSnapshot, npuNodeId } from "./inventory-index";
import { inventoryFromSnapshot, snapshotOfInventory, type InventorySnapshot } from "./inventory-snapshot";
import { largeA2Cluster, largeA3Cluster } from "./large-cluster";

type Inventory = Pick<ClusterSpec, "superPodIds" | "servers" | "links">;

/**
 * The index as it was before it was kept in columns (an object per die, NPU and link, maps by id): the oracle the
 * column index must answer exactly as, die for die, link for link and in the same order.
 */
function objectIndex(spec: Inventory) {
  interface Die { id: string; spec: DieSpec; server: Server; npuIndex: number; rank: number }
  interface Npu { id: string; npuIndex: number; dies: Die[] }
  interface Server { id: string; spec: ServerSpec; pod: Pod | null; npus: Npu[]; dies: Die[] }
  interface Pod { id: string; servers: Server[]; dies: number }
  const pods: Pod[] = spec.superPodIds.map((id) => ({ id, servers: [], dies: 0 }));
  const podById = new Map(pods.map((pod) => [pod.id, pod]));
  const servers: Server[] = [];
  const dieById = new Map<string, Die>();
  const dieByRank: Die[] = [];
  let npuCount = 0;
  for (const serverSpec of spec.servers) {
    const pod = serverSpec.superPodId === null ? null : (podById.get(serverSpec.superPodId) ?? null);
    const server: Server = { id: serverSpec.serverId, spec: serverSpec, pod, npus: [], dies: [] };
    for (const npuSpec of [...serverSpec.npus].sort((a, b) => a.npuIndex - b.npuIndex)) {
      npuCount++;
      const npu: Npu = { id: npuNodeId(server.id, npuSpec.npuIndex), npuIndex: npuSpec.npuIndex, dies: [] };
      for (const dieSpec of [...npuSpec.dies].sort((a, b) => a.dieIndex - b.dieIndex)) {
        const die: Die = { id: dieNodeId(server.id, dieSpec.deviceId), spec: dieSpec, server, npuIndex: npu.npuIndex, rank: 0 };
        npu.dies.push(die);
        server.dies.push(die);
        dieById.set(die.id, die);
      }
      server.npus.push(npu);
    }
    server.dies.sort((a, b) => a.spec.deviceId - b.spec.deviceId);
    for (const die of server.dies) {
      die.rank = dieByRank.length;
      dieByRank.push(die);
    }
    if (pod) {
      pod.servers.push(server);
      pod.dies += server.dies.length;
    }
    servers.push(server);
  }
  const dieLinks = new Map<string, { kind: LinkKind; peer: Die }[]>();
  const add = (from: Die, link: { kind: LinkKind; peer: Die }) => {
    const list = dieLinks.get(from.id);
    if (list) list.push(link);
    else dieLinks.set(from.id, [link]);
  };
  for (const link of spec.links) {
    const a = dieById.get(dieNodeId(link.source.serverId, link.source.deviceId));
    const b = dieById.get(dieNodeId(link.target.serverId, link.target.deviceId));
    if (!a || !b) continue;
    add(a, { kind: link.kind, peer: b });
    add(b, { kind: link.kind, peer: a });
  }
  return { pods, servers, dieById, dieByRank, dieLinks, npuCount };
}

interface AnyDie {
  id: string;
  rank: number;
  npuIndex: number;
  spec: DieSpec;
  server: { id: string };
}
interface AnyIndex {
  pods: { id: string; dies: number; servers: { id: string }[] }[];
  servers: { id: string; spec: Omit<ServerSpec, "npus">; pod: { id: string } | null; npus: { id: string; npuIndex: number; dies: AnyDie[] }[]; dies: AnyDie[] }[];
  dieByRank: AnyDie[];
  dieById: { get(id: string): AnyDie | undefined; size: number };
  dieLinks: { get(id: string): { kind: LinkKind; peer: AnyDie }[] | undefined; size: number };
  npuCount: number;
}

/** Everything a view, search or detail reads of an index, as plain data. */
function answers(index: AnyIndex) {
  const dieOf = (die: AnyDie) => ({
    id: die.id,
    rank: die.rank,
    npuIndex: die.npuIndex,
    server: die.server.id,
    spec: (({ deviceId, dieIndex, superDeviceId, deviceIp, devicePort, backupDeviceIp, backupDevicePort, hostPort }: DieSpec) => ({ deviceId, dieIndex, superDeviceId, deviceIp, devicePort, backupDeviceIp, backupDevicePort, hostPort }))(die.spec),
    links: (index.dieLinks.get(die.id) ?? []).map((link) => [link.kind, link.peer.id, link.peer.rank]),
    byId: index.dieById.get(die.id)?.rank,
  });
  return {
    pods: index.pods.map((pod) => [pod.id, pod.dies, pod.servers.map((server) => server.id)]),
    servers: index.servers.map(({ id, spec: { serverId, hostIp, model, superPodId }, pod, npus, dies }) => ({
      id,
      spec: { serverId, hostIp, model, superPodId },
      pod: pod?.id ?? null,
      npus: npus.map((npu) => [npu.id, npu.npuIndex, npu.dies.map((die) => die.id)]),
      dies: dies.map((die) => die.rank),
    })),
    dies: index.dieByRank.map(dieOf),
    unknown: ["nope/d0", `${index.servers[0]?.id}/d999`, `${index.servers[0]?.id}/d`, `${index.servers[0]?.id}/d00`].map((id) => index.dieById.get(id)?.id ?? null),
    sizes: [index.dieById.size, index.dieLinks.size, index.npuCount],
  };
}

const header = { id: 1, slug: "t", name: "t", mode: "super-pod" as const, inventoryRevision: 1 };

/** A small deterministic generator (mulberry32), so a failing shuffle is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const shuffled = <T>(list: readonly T[], next: () => number): T[] => {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/**
 * The inventory in disorder: NPUs and dies listed out of order, device ids dealt out again within each server (so
 * device order is not NPU order), links shuffled and one to a die that does not exist, and a die with every
 * optional field empty.
 */
function disordered(spec: ClusterSpec, seed: number): ClusterSpec {
  const next = random(seed);
  const servers = spec.servers.map((server) => {
    const ids = shuffled(server.npus.flatMap((npu) => npu.dies.map((die) => die.deviceId)), next);
    let k = 0;
    const npus = server.npus.map((npu) => ({ ...npu, dies: npu.dies.map((die) => ({ ...die, deviceId: ids[k++]! })) }));
    return { ...server, npus: shuffled(npus.map((npu) => ({ ...npu, dies: shuffled(npu.dies, next) })), next) };
  });
  const first = servers[0]!.npus[0]!.dies[0]!;
  Object.assign(first, { superDeviceId: null, deviceIp: null, devicePort: null, backupDeviceIp: null, backupDevicePort: null, hostPort: null });
  const links = shuffled(spec.links, next);
  links.push({ kind: links[0]!.kind, source: links[0]!.source, target: { serverId: "nowhere", deviceId: 0 } });
  return { ...spec, servers, links };
}

/** The snapshot with its servers' dies in another order (as stored when servers were moved: by server row id). */
function serversReordered(snapshot: InventorySnapshot): InventorySnapshot {
  const count = snapshot.dies.server.length;
  const order = Array.from({ length: count }, (_, pos) => pos).sort((a, b) => snapshot.dies.server[b]! - snapshot.dies.server[a]! || a - b);
  const placeOf = new Array<number>(count);
  order.forEach((pos, place) => (placeOf[pos] = place));
  const dies = Object.fromEntries(Object.entries(snapshot.dies).map(([key, column]) => [key, order.map((pos) => (column as unknown[])[pos])])) as InventorySnapshot["dies"];
  const links = { ...snapshot.links, source: snapshot.links.source.map((pos) => placeOf[pos]!), target: snapshot.links.target.map((pos) => placeOf[pos]!) };
  return { ...snapshot, dies, links };
}

/** The snapshot as stored since format 2 (db/queries/inventory-snapshot.ts): its link ends as differences. */
function endsAsDifferences(snapshot: InventorySnapshot): InventorySnapshot {
  const { source, target } = snapshot.links;
  return { ...snapshot, format: 2, links: { ...snapshot.links, source: source.map((s, i) => s - (source[i - 1] ?? 0)), target: target.map((t, i) => t - source[i]!) } };
}

const clusters: [string, ClusterSpec][] = [
  ["A3 demo", demoA3Cluster(2, 4)],
  ["A2 demo", demoA2Cluster(3)],
  ["large A3 (pods drawn by rack)", largeA3Cluster(3, [70, 5, 33])],
  ["plain A2 servers by rack", largeA2Cluster(1100)],
];

describe("the topology index in columns", () => {
  it.each(clusters)("answers as the object index did for the %s cluster", (_, spec) => {
    expect(answers(buildTopologyIndex(header, spec))).toEqual(answers(objectIndex(spec)));
  });

  it.each(clusters)("answers as the object index did for the %s cluster in disorder", (_, spec) => {
    for (const seed of [1, 2, 3]) {
      const mixed = disordered(spec, seed);
      const lean = answers(buildTopologyIndex(header, mixed));
      expect(lean).toEqual(answers(objectIndex(mixed)));
      // The disorder reaches the index: somewhere device order is not NPU order.
      expect(lean.dies.some((die, rank) => rank > 0 && die.server === lean.dies[rank - 1]!.server && die.npuIndex < lean.dies[rank - 1]!.npuIndex)).toBe(true);
    }
  });

  it.each(clusters)("answers from a stored snapshot whose servers' dies come in another order as from its inventory, for %s", (_, spec) => {
    const stored = serversReordered(snapshotOfInventory(disordered(spec, 7)));
    expect(answers(indexFromSnapshot(header, stored))).toEqual(answers(objectIndex(inventoryFromSnapshot(stored))));
  });

  it.each(clusters)("answers from a snapshot whose link ends are differences (format 2) as from the same ends as places, for %s", (_, spec) => {
    const places = serversReordered(snapshotOfInventory(disordered(spec, 5)));
    const stored = endsAsDifferences(places);
    // Links in disorder: differences of both signs.
    expect(stored.links.source.some((d) => d < 0) && stored.links.target.some((d) => d < 0)).toBe(true);
    expect(answers(indexFromSnapshot(header, stored))).toEqual(answers(indexFromSnapshot(header, places)));
    expect(inventoryFromSnapshot(stored)).toEqual(inventoryFromSnapshot(places));
  });

  it("keeps one object per die, whichever way it is reached", () => {
    const index = buildTopologyIndex(header, demoA3Cluster(1, 2));
    const die = index.servers[1]!.npus[3]!.dies[1]!;
    expect(index.die(die.rank)).toBe(die);
    expect(index.dieById.get(die.id)).toBe(die);
    expect(index.servers[1]!.dies).toContain(die);
    for (const link of index.linksOf(die)) expect(index.linksOf(link.peer).map((back) => back.peer)).toContain(die);
  });
});
