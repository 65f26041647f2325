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
  /**
   * Dies as ranks in columns, no object per die (a million at 524,288 NPUs): a die object is made for a hit. Device
   * IPs (lower-cased) sorted with their ranks; super device ids sorted by value with their ranks.
   */
  deviceIps: { keys: string[]; ranks: Uint32Array };
  superDeviceIds: { values: Float64Array; ranks: Uint32Array };
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
  const built: Omit<SearchIndex, "deviceIps" | "superDeviceIds"> = { servers: [], serverById: new Map(), hostIps: [] };
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
  });
  const byKey = (a: Entry<unknown>, b: Entry<unknown>) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.order - b.order);
  built.hostIps.sort(byKey);
  // Dies: rank order is inventory order, so ties go by rank.
  const ipOfRank: string[] = new Array(index.dieCount);
  const withIp: number[] = [];
  const withSuperId: number[] = [];
  for (let rank = 0; rank < index.dieCount; rank++) {
    const row = rowOfRank[rank]!;
    const deviceIp = columns.deviceIp[row];
    if (deviceIp) {
      ipOfRank[rank] = deviceIp.toLowerCase();
      withIp.push(rank);
    }
    if (!Number.isNaN(columns.superDeviceId[row]!)) withSuperId.push(rank);
  }
  withIp.sort((a, b) => (ipOfRank[a]! < ipOfRank[b]! ? -1 : ipOfRank[a]! > ipOfRank[b]! ? 1 : a - b));
  const superIdOf = (rank: number) => columns.superDeviceId[rowOfRank[rank]!]!;
  withSuperId.sort((a, b) => superIdOf(a) - superIdOf(b) || a - b);
  const search: SearchIndex = {
    ...built,
    deviceIps: { keys: withIp.map((rank) => ipOfRank[rank]!), ranks: Uint32Array.from(withIp) },
    superDeviceIds: { values: Float64Array.from(withSuperId, superIdOf), ranks: Uint32Array.from(withSuperId) },
  };
  searchIndexes.set(index, search);
  return search;
}

/** A die's place in inventory order (see orderOf): its server's position, then 2 + 2 × its place there (+ 1). */
function dieOrder(index: TopologyIndex, rank: number, within: 0 | 1): number {
  const position = index.serverOfRank(rank);
  return orderOf(position, 2 + 2 * (rank - index.servers[position]!.firstRank) + within);
}

/** The first place in [0, length) whose key is not below `key` (keys in order). */
function lowerBound<K>(length: number, keyAt: (i: number) => K, key: K): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyAt(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The places of sorted keys that start with `prefix`, as a range [from, to). */
function prefixRange(length: number, keyAt: (i: number) => string, prefix: string): [number, number] {
  // Every key with the prefix sorts before the prefix followed by the highest UTF-16 unit.
  return [lowerBound(length, keyAt, prefix), lowerBound(length, keyAt, `${prefix}\uffff`)];
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
  const addresses = (length: number, keyAt: (i: number) => string, orderAt: (i: number) => number, hit: (i: number) => SearchHit) => {
    const [from, to] = prefixRange(length, keyAt, q);
    for (let i = from; i < to; i++) {
      if (keyAt(i) === q) exact.offer(orderAt(i), () => hit(i));
      else if (!isNumber) partial.offer(orderAt(i), () => hit(i));
    }
  };
  if (wants("hostIp")) {
    const { hostIps } = search;
    addresses(hostIps.length, (i) => hostIps[i]!.key, (i) => hostIps[i]!.order, (i) => serverHit(hostIps[i]!.node, "hostIp", hostIps[i]!.node.spec.hostIp!));
  }
  if (wants("deviceIp")) {
    const { keys, ranks } = search.deviceIps;
    const hit = (i: number) => {
      const die = index.die(ranks[i]!);
      return dieHit(die, "deviceIp", die.spec.deviceIp!);
    };
    addresses(keys.length, (i) => keys[i]!, (i) => dieOrder(index, ranks[i]!, 0), hit);
  }
  if (isNumber && wants("superDeviceId")) {
    const { values, ranks } = search.superDeviceIds;
    // Every value written as q is the number q; of those, only the ones written exactly so match (not "007").
    for (let i = lowerBound(values.length, (at) => values[at]!, Number(q)); i < values.length && values[i] === Number(q); i++) {
      const rank = ranks[i]!;
      if (String(values[i]) === q) exact.offer(dieOrder(index, rank, 1), () => dieHit(index.die(rank), "superDeviceId", q));
    }
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
