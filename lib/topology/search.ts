import type { IndexedDie, IndexedServer, TopologyIndex } from "./inventory-index";
import type { SearchField, SearchHit, SearchResult } from "./model";
import { rackIndex } from "./racks";

export const SEARCH_LIMIT = 20;

function serverHit(server: IndexedServer, field: SearchField, value: string): SearchHit {
  return { kind: "server", id: server.id, label: server.id, field, value, superPodId: server.pod?.id ?? null, serverId: server.id };
}

function dieHit(die: IndexedDie, field: SearchField, value: string): SearchHit {
  return {
    kind: "die",
    id: die.id,
    label: `${die.server.id} · die ${die.spec.deviceId}`,
    field,
    value,
    superPodId: die.server.pod?.id ?? null,
    serverId: die.server.id,
  };
}

/** A value to look up (lower-cased) and what it names, with its place in the inventory's order. */
interface Entry<T> {
  key: string;
  node: T;
  order: number;
}

/**
 * What a search looks things up in, built once per topology index (so once per inventory revision): exact values in
 * maps, addresses also sorted for prefix ranges. A search then costs the hits it finds, not the cluster: a linear
 * scan of 524,288 dies' addresses, lower-casing each, is most of 100 ms on its own.
 */
interface SearchIndex {
  servers: { key: string; server: IndexedServer; order: number }[];
  serverById: Map<string, Entry<IndexedServer>[]>;
  hostIps: Entry<IndexedServer>[];
  /** Dies by rank: a die object is made for a hit, not for every die indexed. */
  deviceIps: Entry<number>[];
  superDeviceIds: Map<string, Entry<number>[]>;
}

/**
 * Inventory order as one number: the server's position, then its own fields (0 server id, 1 host IP) before its dies
 * (2 + 2 × place of the die in the server, + 1 for its super device id). A server has at most 65 dies.
 */
const orderOf = (serverPosition: number, within: number) => serverPosition * 256 + within;

const searchIndexes = new WeakMap<TopologyIndex, SearchIndex>();

/** The search index of a topology index, built on its first search and kept as long as the topology index is. */
export function searchIndexOf(index: TopologyIndex): SearchIndex {
  const cached = searchIndexes.get(index);
  if (cached) return cached;
  const built: SearchIndex = { servers: [], serverById: new Map(), hostIps: [], deviceIps: [], superDeviceIds: new Map() };
  const push = <K, T>(map: Map<K, T[]>, key: K, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const { dieColumns: columns } = index;
  const { rowOfRank } = columns;
  index.servers.forEach((server, position) => {
    const key = server.id.toLowerCase();
    built.servers.push({ key, server, order: orderOf(position, 0) });
    push(built.serverById, key, { key, node: server, order: orderOf(position, 0) });
    if (server.spec.hostIp) built.hostIps.push({ key: server.spec.hostIp.toLowerCase(), node: server, order: orderOf(position, 1) });
    for (let place = 0; place < server.dieCount; place++) {
      const rank = server.firstRank + place;
      const row = rowOfRank[rank]!;
      const deviceIp = columns.deviceIp[row];
      const superDeviceId = columns.superDeviceId[row]!;
      if (deviceIp) built.deviceIps.push({ key: deviceIp.toLowerCase(), node: rank, order: orderOf(position, 2 + 2 * place) });
      if (!Number.isNaN(superDeviceId)) push(built.superDeviceIds, String(superDeviceId), { key: "", node: rank, order: orderOf(position, 3 + 2 * place) });
    }
  });
  const byKey = (a: Entry<unknown>, b: Entry<unknown>) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.order - b.order);
  built.hostIps.sort(byKey);
  built.deviceIps.sort(byKey);
  searchIndexes.set(index, built);
  return built;
}

/** The first entry whose key is not below `key` (entries sorted by key). */
function lowerBound(entries: readonly Entry<unknown>[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries whose key starts with `prefix`, as a range [from, to) of the sorted list. */
function prefixRange(entries: readonly Entry<unknown>[], prefix: string): [number, number] {
  // Every key with the prefix sorts before the prefix followed by the highest UTF-16 unit.
  return [lowerBound(entries, prefix), lowerBound(entries, `${prefix}\uffff`)];
}

/** The `limit` hits first in inventory order, kept while candidates stream past: no sort of a long range. */
class FirstHits {
  private readonly kept: { order: number; hit: () => SearchHit }[] = [];
  total = 0;

  constructor(private readonly limit: number) {}

  offer(order: number, hit: () => SearchHit): void {
    this.total++;
    const { kept, limit } = this;
    if (kept.length === limit && order >= kept[kept.length - 1]!.order) return;
    let at = kept.length;
    while (at > 0 && kept[at - 1]!.order > order) at--;
    kept.splice(at, 0, { order, hit });
    if (kept.length > limit) kept.pop();
  }

  hits(): SearchHit[] {
    return this.kept.map((k) => k.hit());
  }
}

/**
 * Finds servers (by server id or host IP) and dies (by device IP, super device id or inventory rank). Exact matches
 * come first, then prefixes (server ids also by substring), each in inventory order (a rank's die first of all); at
 * most `limit` hits, with the total.
 */
export function searchTopology(index: TopologyIndex, query: string, field: SearchField = "any", limit = SEARCH_LIMIT): SearchResult {
  const q = query.trim().toLowerCase();
  if (!q) return { hits: [], total: 0 };
  const search = searchIndexOf(index);
  const wants = (f: SearchField) => field === "any" || field === f;
  const isNumber = /^\d+$/.test(q);
  const exact = new FirstHits(Number.MAX_SAFE_INTEGER);
  const partial = new FirstHits(limit);

  if (wants("serverId")) {
    for (const { node, order } of search.serverById.get(q) ?? []) exact.offer(order, () => serverHit(node, "serverId", node.id));
    // Substrings need a scan, of servers only (8,192 for a 524,288-NPU SuperCluster).
    for (const { key, server, order } of search.servers) if (key !== q && key.includes(q)) partial.offer(order, () => serverHit(server, "serverId", server.id));
  }
  const addresses = <T>(entries: Entry<T>[], hit: (node: T, value: string) => SearchHit, value: (node: T) => string) => {
    const [from, to] = prefixRange(entries, q);
    for (let i = from; i < to; i++) {
      const { key, node, order } = entries[i]!;
      if (key === q) exact.offer(order, () => hit(node, value(node)));
      else if (!isNumber) partial.offer(order, () => hit(node, value(node)));
    }
  };
  if (wants("hostIp")) addresses(search.hostIps, (server, value) => serverHit(server, "hostIp", value), (server) => server.spec.hostIp!);
  if (wants("deviceIp")) addresses(search.deviceIps, (rank, value) => dieHit(index.die(rank), "deviceIp", value), (rank) => index.die(rank).spec.deviceIp!);
  if (isNumber && wants("superDeviceId")) {
    for (const { node, order } of search.superDeviceIds.get(q) ?? []) exact.offer(order, () => dieHit(index.die(node), "superDeviceId", q));
  }
  const hits = exact.hits();
  let total = exact.total;
  if (isNumber && wants("rank")) {
    const rank = Number(q);
    if (rank < index.dieCount) {
      hits.unshift(dieHit(index.die(rank), "rank", q));
      total++;
    }
  }
  // A server of a pod drawn by rack is landed on in its rack's view (lib/topology/url.ts landingViewOf).
  const racks = rackIndex(index).ofServer;
  const withRack = (hit: SearchHit): SearchHit => {
    const rack = racks.size > 0 ? racks.get(index.serverById.get(hit.serverId)!) : undefined;
    return rack ? { ...hit, rackId: rack.id } : hit;
  };
  return { hits: [...hits, ...partial.hits()].slice(0, limit).map(withRack), total: total + partial.total };
}
