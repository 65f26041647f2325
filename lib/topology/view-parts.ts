import { DomainError } from "@/lib/errors";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { IndexedDie, IndexedPod, IndexedServer, TopologyIndex } from "./inventory-index";
import type { Crumb, TopologyLink } from "./model";
import { podLabel } from "./nodes";
import { rackIndex, rackLabel } from "./racks";
import { rowIndex, rowLabel, rowOfRack } from "./rows";

/** What the views (lib/topology/view-*.ts) share: counting links, headers and breadcrumbs. */

/** A level/id pair that names nothing in the inventory (the API answers 404 not_found). */
export class TopologyNotFoundError extends DomainError {
  constructor(
    readonly what: "superpod" | "row" | "rack" | "server" | "node",
    readonly id: string,
  ) {
    super("not_found", what === "node" ? `no node ${JSON.stringify(id)} in this cluster` : `no ${what === "superpod" ? "super pod" : what} ${JSON.stringify(id)} in this cluster`);
    this.name = "TopologyNotFoundError";
  }
}

/** Counts die-to-die links per (kind, group a, group b), each undirected pair once. */
export class PairCounter {
  private readonly counts = new Map<string, TopologyLink>();
  add(kind: LinkKind, a: string, b: string): void {
    const [source, target] = a < b ? [a, b] : [b, a];
    const key = `${kind}\u0000${source}\u0000${target}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { source, target, kind, count: 1 });
  }
  /** A link already counted elsewhere (pairs of super pods). */
  addCounted(link: TopologyLink): void {
    this.counts.set(`${link.kind}\u0000${link.source}\u0000${link.target}`, { ...link });
  }
  links(): TopologyLink[] {
    return [...this.counts.values()];
  }
}

/**
 * The links between groups of servers drawn as aggregates (racks, rows), per pair of groups and kind (`skip`: kinds
 * drawn otherwise). Links are walked by rank in the index's columns, not as die objects (8,192 racks of 65,536 plain
 * servers made an object for each of their 524,288 dies, kept with the index), each once from its lower rank's end;
 * a link to a server outside every group is not drawn.
 */
export function linksBetweenGroups(index: TopologyIndex, groups: readonly { id: string; servers: readonly IndexedServer[] }[], skip: (kind: LinkKind) => boolean): TopologyLink[] {
  const slotOfServer = new Int32Array(index.servers.length).fill(-1);
  groups.forEach((group, slot) => {
    for (const server of group.servers) if (server.dieCount > 0) slotOfServer[index.serverOfRank(server.firstRank)] = slot;
  });
  const pairs = new PairCounter();
  const { start, peer, kind, kinds } = index.linkColumns;
  groups.forEach((group, slot) => {
    for (const server of group.servers) {
      for (let rank = server.firstRank; rank < server.firstRank + server.dieCount; rank++) {
        for (let at = start[rank]!; at < start[rank + 1]!; at++) {
          const other = peer[at]!;
          if (other <= rank) continue;
          const peerSlot = slotOfServer[index.serverOfRank(other)]!;
          const linkKind = kinds[kind[at]!]!;
          if (peerSlot >= 0 && peerSlot !== slot && !skip(linkKind)) pairs.add(linkKind, group.id, groups[peerSlot]!.id);
        }
      }
    }
  });
  return pairs.links();
}

/** Every die link once (the index keeps each link on both of its dies). */
export function forEachLink(index: TopologyIndex, dies: Iterable<IndexedDie>, visit: (a: IndexedDie, b: IndexedDie, kind: LinkKind) => void): void {
  for (const die of dies) {
    index.forEachLink(die, (peer, kind) => visit(die, peer, kind));
  }
}

export function clusterCounts(index: TopologyIndex) {
  return { superPods: index.pods.length, servers: index.servers.length, npus: index.npuCount, dies: index.dieCount };
}

export function header(index: TopologyIndex) {
  return { ...index.cluster };
}

export function clusterCrumb(index: TopologyIndex): Crumb {
  return { level: "cluster", id: null, label: index.cluster.name };
}

/**
 * From the cluster down: the super pod, the row (when the plain servers' racks are drawn by row), the rack (when the
 * pod or the plain servers are drawn by rack), the server.
 */
export function crumbsFor(index: TopologyIndex, server: IndexedServer | null, pod: IndexedPod | null, rackId: string | null = null, rowId: string | null = null): Crumb[] {
  const path = [clusterCrumb(index)];
  const p = server?.pod ?? pod;
  if (p) path.push({ level: "superpod", id: p.id, label: podLabel(p) });
  const racks = rackIndex(index);
  const rack = server ? racks.ofServer.get(server) : rackId !== null ? racks.byId.get(rackId) : undefined;
  const row = rack ? rowOfRack(index, rack) : rowId !== null ? rowIndex(index).byId.get(rowId) : undefined;
  if (row) path.push({ level: "row", id: row.id, label: rowLabel(row) });
  if (rack) path.push({ level: "rack", id: rack.id, label: rackLabel(rack) });
  if (server) path.push({ level: "server", id: server.id, label: server.id });
  return path;
}

