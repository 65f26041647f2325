import type { TopologyIndex } from "./inventory-index";
import { AGGREGATE_GEOMETRY, layoutCellGrid, type Box } from "./layout";
import type { TopologyLink, TopologyNode, TopologyView } from "./model";
import { groupNode, round } from "./nodes";
import { rackIndex } from "./racks";
import { rowIndex, rowLabel, rowOfRack, type RackRow } from "./rows";
import { aggregateRacks } from "./view-racks";
import { crumbsFor, linksBetweenGroups, header, PairCounter } from "./view-parts";

/** A row drawn as one aggregate: its counts (its health is added with the view's, lib/topology/health-overlay.ts). */
export function rowNode(row: RackRow, box: Box): TopologyNode {
  return groupNode("row", row.id, rowLabel(row), { servers: row.servers, npus: row.npus, dies: row.dies }, null, box);
}

/**
 * The links between rows per pair and kind, counted once per index (kept per inventory revision) and per whether the
 * RoCE links are drawn: counting walks every die's links (4.7 million link ends at 524,288 plain NPUs), which the
 * cluster view must not pay per request.
 */
const rowLinksOf = new WeakMap<TopologyIndex, Map<boolean, TopologyLink[]>>();

/**
 * The plain servers' rows as aggregates (into `nodes`), one grid cell each, sized as a super pod's (a row holds as
 * many NPUs), with the links between them (`roce`: whether RoCE links are drawn, not when the servers attach to the
 * parameter plane).
 */
export function aggregateRows(index: TopologyIndex, rows: readonly RackRow[], nodes: TopologyNode[], roce: boolean) {
  const grid = layoutCellGrid(rows.length, AGGREGATE_GEOMETRY.pod, AGGREGATE_GEOMETRY.podGap);
  rows.forEach((row, i) => nodes.push(rowNode(row, grid.boxes[i]!)));
  let kept = rowLinksOf.get(index);
  if (!kept) rowLinksOf.set(index, (kept = new Map()));
  let links = kept.get(roce);
  if (!links) {
    const groups = rows.map((row) => ({ id: row.id, servers: row.racks.flatMap((rack) => rack.servers) }));
    links = linksBetweenGroups(index, groups, (kind) => kind === "roce" && !roce);
    kept.set(roce, links);
  }
  return { layout: grid, links };
}

/**
 * A row: its racks as aggregates and the links between them; links that leave the row are external, per peer row.
 * Plain servers have no bus planes, so a row draws none.
 */
export function rowView(index: TopologyIndex, row: RackRow): TopologyView {
  const nodes: TopologyNode[] = [];
  const drawn = aggregateRacks(index, row.racks, 0, nodes, () => false);
  const { ofServer } = rackIndex(index);
  const { start, peer, kind, kinds } = index.linkColumns;
  const outside = new PairCounter();
  for (const rack of row.racks) {
    for (const server of rack.servers) {
      for (let rank = server.firstRank; rank < server.firstRank + server.dieCount; rank++) {
        for (let at = start[rank]!; at < start[rank + 1]!; at++) {
          const other = index.servers[index.serverOfRank(peer[at]!)]!;
          const otherRack = ofServer.get(other);
          const otherRow = otherRack ? rowOfRack(index, otherRack) : undefined;
          if (otherRow !== row) outside.add(kinds[kind[at]!]!, "", otherRow?.id ?? other.id);
        }
      }
    }
  }
  return {
    cluster: header(index),
    level: "row",
    id: row.id,
    path: crumbsFor(index, null, null, null, row.id),
    bounds: { width: round(drawn.layout.bounds.width), height: round(drawn.layout.bounds.height) },
    counts: { superPods: 0, servers: row.servers, npus: row.npus, dies: row.dies },
    nodes,
    links: drawn.links,
    external: outside.links().map((link) => ({ kind: link.kind, peer: link.target, peerKind: rowIndex(index).byId.has(link.target) ? ("row" as const) : ("server" as const), count: link.count })),
  };
}
