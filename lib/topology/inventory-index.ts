import type { ClusterSpec, DieSpec, ServerSpec } from "@/lib/inventory/model";
import type { ClusterMode, LinkKind } from "@/lib/inventory/vocabulary";
import { indexColumnsOf, type DieColumns, type LinkColumns } from "./index-columns";
import { snapshotOfInventory, type InventorySnapshot } from "./inventory-snapshot";

/**
 * The inventory of one cluster, indexed for the topology views, search and details. Built once per inventory
 * revision (the API caches it), then every view is a cheap slice of it.
 *
 * Lean at SuperCluster scale (issue 21): a die is a number, its rank, and its fields are columns (typed arrays,
 * ./index-columns.ts); links are one adjacency list in typed arrays. A die object (IndexedDie) is made only when a
 * view, search hit or detail asks for it, and then kept, so the same die is always the same object. Servers and
 * super pods are objects (65,536 servers at 524,288 NPUs); a server's NPUs and dies are made on first use. Built
 * from the stored snapshot's columns without an object per die or link: 1M dies and 2M links cost a few arrays.
 *
 * Node ids: a super pod is its `super_pod_id`, a server its `server_id`, an NPU `<server_id>/npu<index>` and a die
 * `<server_id>/d<device_id>`.
 */
export interface ClusterHeader {
  id: number;
  slug: string;
  name: string;
  mode: ClusterMode;
  inventoryRevision: number;
}

export interface IndexedPod {
  id: string;
  servers: IndexedServer[];
  dies: number;
}

export interface IndexedNpu {
  id: string;
  npuIndex: number;
  dies: IndexedDie[];
}

export interface DieLink {
  kind: LinkKind;
  peer: IndexedDie;
}

/** What a die id names, looked up without a map of every die (tests and jobs ask by id). */
export interface DieLookup {
  get(id: string): IndexedDie | undefined;
  readonly size: number;
}

export function npuNodeId(serverId: string, npuIndex: number): string {
  return `${serverId}/npu${npuIndex}`;
}

export function dieNodeId(serverId: string, deviceId: number): string {
  return `${serverId}/d${deviceId}`;
}

export class IndexedServer {
  #index: TopologyIndex;
  #npus: IndexedNpu[] | undefined;
  #dies: IndexedDie[] | undefined;

  constructor(
    index: TopologyIndex,
    readonly id: string,
    readonly spec: Omit<ServerSpec, "npus">,
    readonly pod: IndexedPod | null,
    /** Its dies are the ranks [firstRank, firstRank + dieCount), in device order; and the rows likewise. */
    readonly firstRank: number,
    readonly dieCount: number,
    readonly npuCount: number,
  ) {
    this.#index = index;
  }

  /** In device order (rank order). */
  get dies(): IndexedDie[] {
    if (!this.#dies) {
      const dies: IndexedDie[] = new Array(this.dieCount);
      for (let k = 0; k < this.dieCount; k++) dies[k] = this.#index.die(this.firstRank + k);
      this.#dies = dies;
    }
    return this.#dies;
  }

  /** By NPU index, each NPU's dies by die index. */
  get npus(): IndexedNpu[] {
    if (!this.#npus) {
      const { dieColumns: columns } = this.#index;
      const npus: IndexedNpu[] = [];
      for (let row = this.firstRank; row < this.firstRank + this.dieCount; row++) {
        const npuIndex = columns.npuIndex[row]!;
        let npu = npus[npus.length - 1];
        if (!npu || npu.npuIndex !== npuIndex) npus.push((npu = { id: npuNodeId(this.id, npuIndex), npuIndex, dies: [] }));
        npu.dies.push(this.#index.die(columns.rankOfRow[row]!));
      }
      this.#npus = npus;
    }
    return this.#npus;
  }
}

export class IndexedDie {
  #columns: DieColumns;
  #row: number;
  #id: string | undefined;
  #spec: DieSpec | undefined;

  constructor(
    columns: DieColumns,
    readonly server: IndexedServer,
    /** Rank in a table built from the inventory: servers in inventory order, dies in device order. */
    readonly rank: number,
  ) {
    this.#columns = columns;
    this.#row = columns.rowOfRank[rank]!;
  }

  get id(): string {
    return (this.#id ??= dieNodeId(this.server.id, this.#columns.deviceId[this.#row]!));
  }

  get npuIndex(): number {
    return this.#columns.npuIndex[this.#row]!;
  }

  get spec(): DieSpec {
    return (this.#spec ??= this.#columns.spec(this.#row));
  }
}

export class TopologyIndex {
  readonly pods: IndexedPod[];
  readonly servers: IndexedServer[];
  readonly podById: Map<string, IndexedPod>;
  readonly serverById: Map<string, IndexedServer>;
  readonly npuCount: number;
  readonly dieCount: number;
  /** Per row and per rank (public, as the links are, so two indexes compare whole). */
  readonly dieColumns: DieColumns;
  /** Each die's links by rank, both ends, in link order. */
  readonly linkColumns: LinkColumns;
  #dies: (IndexedDie | undefined)[];
  #serverOfRank: Uint32Array;
  #dieByRank: IndexedDie[] | undefined;

  constructor(
    readonly cluster: ClusterHeader,
    snapshot: InventorySnapshot,
  ) {
    const { dies: dieColumns, links } = indexColumnsOf(snapshot);
    this.dieColumns = dieColumns;
    this.linkColumns = links;
    this.pods = snapshot.superPodIds.map((id) => ({ id, servers: [], dies: 0 }));
    this.podById = new Map(this.pods.map((pod) => [pod.id, pod]));
    this.servers = [];
    this.serverById = new Map();
    this.dieCount = dieColumns.rowOfRank.length;
    this.#dies = new Array(this.dieCount);
    this.#serverOfRank = new Uint32Array(this.dieCount);
    let npuCount = 0;
    snapshot.servers.forEach(([serverId, hostIp, model, superPodId], s) => {
      const pod = superPodId === null ? null : (this.podById.get(superPodId) ?? null);
      const first = dieColumns.serverStart[s]!;
      const count = dieColumns.serverStart[s + 1]! - first;
      const server = new IndexedServer(this, serverId, { serverId, hostIp, model, superPodId }, pod, first, count, dieColumns.npusOf(first, first + count));
      this.#serverOfRank.fill(s, first, first + count);
      npuCount += server.npuCount;
      if (pod) {
        pod.servers.push(server);
        pod.dies += count;
      }
      this.servers.push(server);
      this.serverById.set(serverId, server);
    });
    this.npuCount = npuCount;
  }

  /** The die of a rank (0 ≤ rank < dieCount), one object per die for the index's life. */
  die(rank: number): IndexedDie {
    return (this.#dies[rank] ??= new IndexedDie(this.dieColumns, this.servers[this.#serverOfRank[rank]!]!, rank));
  }

  /** The server position of a rank's die, without making the die. */
  serverOfRank(rank: number): number {
    return this.#serverOfRank[rank]!;
  }

  /** The die an id names (`<server_id>/d<device_id>`), looked up in its server's dies. */
  dieOf(id: string): IndexedDie | undefined {
    const rank = this.rankOf(id);
    return rank < 0 ? undefined : this.die(rank);
  }

  /** The rank of the die an id names, -1 for none, without making the die (a job's 100,000 dies are looked up). */
  rankOf(id: string): number {
    // A device id is a number: the last "/d" ends the server id, whatever the server id holds.
    const at = id.lastIndexOf("/d");
    const server = at < 0 ? undefined : this.serverById.get(id.slice(0, at));
    if (!server) return -1;
    // The id's device as it prints ("01" names no die, as a string comparison of each die's would say).
    const device = Number(id.slice(at + 2));
    if (String(device) !== id.slice(at + 2)) return -1;
    const { deviceId, rowOfRank } = this.dieColumns;
    for (let rank = server.firstRank; rank < server.firstRank + server.dieCount; rank++) if (deviceId[rowOfRank[rank]!] === device) return rank;
    return -1;
  }

  get dieById(): DieLookup {
    return { get: (id) => this.dieOf(id), size: this.dieCount };
  }

  /** Each die's links (both ends) in link order. */
  forEachLink(die: IndexedDie, visit: (peer: IndexedDie, kind: LinkKind) => void): void {
    const { start, peer, kind, kinds } = this.linkColumns;
    for (let at = start[die.rank]!; at < start[die.rank + 1]!; at++) visit(this.die(peer[at]!), kinds[kind[at]!]!);
  }

  linksOf(die: IndexedDie): DieLink[] {
    const links: DieLink[] = [];
    this.forEachLink(die, (peer, kind) => links.push({ kind, peer }));
    return links;
  }

  /** The links of a die by id, as a map of every linked die would give them (undefined: none). */
  get dieLinks(): { get(id: string): DieLink[] | undefined; readonly size: number } {
    return {
      get: (id) => {
        const die = this.dieOf(id);
        const links = die ? this.linksOf(die) : [];
        return links.length > 0 ? links : undefined;
      },
      size: this.linkColumns.linkedDies,
    };
  }

  /** Every die by rank. It makes every die object: for tests and benches, never a request at scale. */
  get dieByRank(): IndexedDie[] {
    return (this.#dieByRank ??= Array.from({ length: this.dieCount }, (_, rank) => this.die(rank)));
  }
}

/** The index of a stored snapshot's columns (lib/topology/inventory-snapshot.ts), what a fresh process builds. */
export function indexFromSnapshot(cluster: ClusterHeader, snapshot: InventorySnapshot): TopologyIndex {
  return new TopologyIndex(cluster, snapshot);
}

/** The index of an inventory read from the rows (or given whole): encoded as the snapshot is, then indexed alike. */
export function buildTopologyIndex(cluster: ClusterHeader, spec: Pick<ClusterSpec, "superPodIds" | "servers" | "links">): TopologyIndex {
  return indexFromSnapshot(cluster, snapshotOfInventory(spec));
}
