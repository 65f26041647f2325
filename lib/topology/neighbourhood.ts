import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { IndexedDie, IndexedServer, TopologyIndex } from "./inventory-index";
import { gridCells, gridSize, layoutServer, type ServerGeometry } from "./layout";
import { MAX_HOPS, type TopologyLink, type TopologyNode } from "./model";
import { dieNode, npuNode, round, serverNode } from "./nodes";

/**
 * A server's or a die's neighbourhood: the dies reached in up to `hops` hops along the chosen link kinds, breadth
 * first. At half a million NPUs nobody draws everything; an operator starts where the trouble is and expands outward
 * ("show me N hops from this device"). Deterministic (the seeds in rank order, each die's links in (kind, rank)
 * order of the peer) and bounded: at most `cap` dies are drawn, the first in that order, and the rest are counted.
 */
export const NEIGHBOURHOOD_MAX_DIES = 768;
/** Counting what is not drawn stops here: beyond it the count is a lower bound (`reachedCapped`). */
export const NEIGHBOURHOOD_COUNT_LIMIT = 100_000;

export interface ExpandOptions {
  hops: number;
  kinds: readonly LinkKind[];
  cap?: number;
  countLimit?: number;
}

export interface Neighbourhood {
  /** The dies drawn, in breadth-first order, with their hop from the seeds. */
  dies: { die: IndexedDie; hop: number }[];
  reached: number;
  reachedCapped: boolean;
  omitted: number;
}

export function expandNeighbourhood(index: TopologyIndex, seeds: readonly IndexedDie[], options: ExpandOptions): Neighbourhood {
  const hops = Math.max(0, Math.min(MAX_HOPS, Math.floor(options.hops)));
  const cap = options.cap ?? NEIGHBOURHOOD_MAX_DIES;
  const limit = Math.max(cap, options.countLimit ?? NEIGHBOURHOOD_COUNT_LIMIT);
  const kindOrder = new Map(options.kinds.map((kind, i) => [kind, i]));
  const seen = new Set<IndexedDie>();
  const drawn: Neighbourhood["dies"] = [];
  let frontier = [...new Set(seeds)].sort((a, b) => a.rank - b.rank);
  let capped = false;
  const visit = (die: IndexedDie, hop: number) => {
    seen.add(die);
    if (drawn.length < cap) drawn.push({ die, hop });
  };
  for (const die of frontier) visit(die, 0);
  for (let hop = 1; hop <= hops && frontier.length > 0 && !capped; hop++) {
    const next: IndexedDie[] = [];
    for (const die of frontier) {
      const links = index.linksOf(die)
        .filter((link) => kindOrder.has(link.kind))
        .sort((a, b) => kindOrder.get(a.kind)! - kindOrder.get(b.kind)! || a.peer.rank - b.peer.rank);
      for (const link of links) {
        if (seen.has(link.peer)) continue;
        if (seen.size >= limit) {
          capped = true;
          break;
        }
        visit(link.peer, hop);
        next.push(link.peer);
      }
      if (capped) break;
    }
    frontier = next;
  }
  return { dies: drawn, reached: seen.size, reachedCapped: capped, omitted: seen.size - drawn.length };
}

/** The dies of a neighbourhood's servers drawn smaller than the server view's, so that tens of servers fit. */
export const NEIGHBOURHOOD_GEOMETRY: ServerGeometry = {
  dieWidth: 46,
  dieHeight: 28,
  dieGap: 14,
  npuPadding: 4,
  npuHeader: 16,
  npuGap: 8,
  npuColumns: 4,
  serverPadding: 10,
  serverHeader: 30,
};
const HOP_GAP = 90;
const SERVER_GAP = 30;

export interface NeighbourhoodDrawing {
  nodes: TopologyNode[];
  links: TopologyLink[];
  bounds: { width: number; height: number };
  servers: number;
  /** Dies drawn: the reached ones and the rest of the seed's server. */
  dies: number;
}

/**
 * The neighbourhood drawn: its servers, each with the NPUs and dies reached (the seed's server whole), in one block
 * per hop from left to right (a server's hop is its nearest die's), servers in rank order inside a block; the links
 * of the chosen kinds between drawn dies.
 */
export function drawNeighbourhood(seedServer: IndexedServer, found: Neighbourhood, kinds: readonly LinkKind[], index: TopologyIndex): NeighbourhoodDrawing {
  // Reached dies carry their hop; the rest of the seed's server (a die was the seed) is drawn for context, without.
  const hopOf = new Map<IndexedDie, number>(found.dies.map(({ die, hop }) => [die, hop]));
  const byServer = new Map<IndexedServer, { hop: number; dies: Set<IndexedDie> }>();
  byServer.set(seedServer, { hop: 0, dies: new Set(seedServer.dies) });
  for (const { die, hop } of found.dies) {
    const entry = byServer.get(die.server);
    if (entry) {
      entry.dies.add(die);
      entry.hop = Math.min(entry.hop, hop);
    } else byServer.set(die.server, { hop, dies: new Set([die]) });
  }
  const blocks: IndexedServer[][] = [];
  for (const [server, { hop }] of byServer) (blocks[hop] ??= []).push(server);
  const nodes: TopologyNode[] = [];
  let left = 0;
  let height = 0;
  for (const [hop, servers] of blocks.entries()) {
    if (!servers) continue;
    servers.sort((a, b) => (a.dies[0]?.rank ?? 0) - (b.dies[0]?.rank ?? 0));
    // Per server, its NPUs that have a drawn die, with those dies in die order.
    const drawnNpus = servers.map((server) =>
      server.npus.map((npu) => ({ npu, dies: npu.dies.filter((die) => byServer.get(server)!.dies.has(die)) })).filter((entry) => entry.dies.length > 0),
    );
    const sizes = drawnNpus.map((npus) => layoutServer(npus.map((entry) => entry.dies.length), NEIGHBOURHOOD_GEOMETRY, { x: 0, y: 0 }).box);
    const cell = { width: Math.max(...sizes.map((s) => s.width)), height: Math.max(...sizes.map((s) => s.height)) };
    // A block is a column (or several, when it holds many servers) left of the next hop's.
    const rows = Math.max(1, Math.min(servers.length, Math.ceil(Math.sqrt(servers.length * 2))));
    const columns = Math.ceil(servers.length / rows);
    const boxes = gridCells(servers.length, cell, SERVER_GAP, columns, { x: left, y: 0 });
    servers.forEach((server, i) => {
      const npus = drawnNpus[i]!;
      const layout = layoutServer(npus.map((entry) => entry.dies.length), NEIGHBOURHOOD_GEOMETRY, boxes[i]!, cell);
      nodes.push({ ...serverNode(server, layout.box, server.pod?.id ?? null), hop, drawnDies: byServer.get(server)!.dies.size });
      npus.forEach((entry, j) => {
        const npuLayout = layout.npus[j]!;
        nodes.push(npuNode(server, entry.npu.npuIndex, entry.npu.id, npuLayout.box, entry.npu.dies.length));
        entry.dies.forEach((die, k) => {
          const node = dieNode(die, npuLayout.dies[k]!, entry.npu.id);
          const dieHop = hopOf.get(die);
          nodes.push(dieHop === undefined ? node : { ...node, hop: dieHop });
        });
      });
    });
    const size = gridSize(servers.length, cell, SERVER_GAP, columns);
    left += size.width + HOP_GAP;
    height = Math.max(height, size.height);
  }
  const drawnDies = new Set([...hopOf.keys(), ...seedServer.dies]);
  const wanted = new Set(kinds);
  const links: TopologyLink[] = [];
  for (const die of drawnDies) {
    for (const link of index.linksOf(die)) {
      if (wanted.has(link.kind) && die.id < link.peer.id && drawnDies.has(link.peer)) links.push({ source: die.id, target: link.peer.id, kind: link.kind, count: 1 });
    }
  }
  return { nodes, links, bounds: { width: round(Math.max(0, left - HOP_GAP)), height: round(height) }, servers: byServer.size, dies: drawnDies.size };
}
