/**
 * The geometry of the topology graph's links, in view units: where a link between two boxes is drawn (straight
 * across the gap between neighbours, round the outside of the grid between far ones) and where its count goes.
 */
import type { Box } from "@/lib/topology/layout";
import type { NodeKind, TopologyLink, TopologyNode, TopologyView } from "@/lib/topology/model";

export type Point = [number, number];

/** Where the straight line between two boxes' centres leaves the first box and enters the second. */
export function clipBetween(a: Box, b: Box): [[number, number], [number, number]] {
  const ca: [number, number] = [a.x + a.width / 2, a.y + a.height / 2];
  const cb: [number, number] = [b.x + b.width / 2, b.y + b.height / 2];
  const dx = cb[0] - ca[0];
  const dy = cb[1] - ca[1];
  // The fraction of the segment spent inside a box centred on one end.
  const exit = (box: Box) => {
    const tx = dx === 0 ? Infinity : box.width / 2 / Math.abs(dx);
    const ty = dy === 0 ? Infinity : box.height / 2 / Math.abs(dy);
    return Math.min(tx, ty, 0.5);
  };
  const ta = exit(a);
  const tb = exit(b);
  return [
    [ca[0] + dx * ta, ca[1] + dy * ta],
    [cb[0] - dx * tb, cb[1] - dy * tb],
  ];
}

/** Whether two boxes are next to each other: no third box fits between them. */
export function touching(a: Box, b: Box): boolean {
  const gapX = Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width);
  const gapY = Math.max(a.y, b.y) - Math.min(a.y + a.height, b.y + b.height);
  const size = Math.min(a.width, a.height, b.width, b.height);
  return (gapX < size && gapY <= 0) || (gapY < size && gapX <= 0);
}

type Side = "left" | "right" | "top" | "bottom";
const SIDES: readonly Side[] = ["left", "right", "top", "bottom"];
const OPPOSITE: Record<Side, Side> = { left: "right", right: "left", top: "bottom", bottom: "top" };
const isVertical = (side: Side) => side === "left" || side === "right";

/** How far outside the grid of boxes a routed link runs, in view units (half the super pod view's server gap). */
export const ROUTE_MARGIN = 20;

/**
 * A link between two boxes that are not neighbours (the link closing a ring: the last server back to the first),
 * routed around the grid of `boxes` so it crosses none: out of each end through a side of it on the grid's edge,
 * then along lines ROUTE_MARGIN outside the grid, the shortest way. Null when an end is not on the grid's edge.
 */
export function routeAround(a: Box, b: Box, boxes: readonly Box[]): Point[] | null {
  const edge = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const box of boxes) {
    edge.left = Math.min(edge.left, box.x);
    edge.top = Math.min(edge.top, box.y);
    edge.right = Math.max(edge.right, box.x + box.width);
    edge.bottom = Math.max(edge.bottom, box.y + box.height);
  }
  // Where the route runs beside each side of the grid: an x for left and right, a y for top and bottom.
  const line: Record<Side, number> = { left: edge.left - ROUTE_MARGIN, right: edge.right + ROUTE_MARGIN, top: edge.top - ROUTE_MARGIN, bottom: edge.bottom + ROUTE_MARGIN };
  const far = (box: Box): Record<Side, number> => ({ left: box.x, right: box.x + box.width, top: box.y, bottom: box.y + box.height });
  const sidesOnEdge = (box: Box) => SIDES.filter((side) => Math.abs(far(box)[side] - edge[side]) < 1e-9);
  /** From the middle of a box's side straight out to the route's line on that side. */
  const exit = (box: Box, side: Side): [Point, Point] =>
    isVertical(side)
      ? [[far(box)[side], box.y + box.height / 2], [line[side], box.y + box.height / 2]]
      : [[box.x + box.width / 2, far(box)[side]], [box.x + box.width / 2, line[side]]];
  const corner = (s: Side, t: Side): Point => (isVertical(s) ? [line[s], line[t]] : [line[t], line[s]]);
  const length = (points: Point[]) => points.slice(1).reduce((sum, p, i) => sum + Math.abs(p[0] - points[i]![0]) + Math.abs(p[1] - points[i]![1]), 0);

  let best: Point[] | null = null;
  for (const sa of sidesOnEdge(a)) {
    for (const sb of sidesOnEdge(b)) {
      // The corners of the grid the route turns round: none along one side, one between adjacent sides, two
      // (either way round) between opposite ones.
      const ways: Point[][] =
        sa === sb ? [[]] : OPPOSITE[sa] !== sb ? [[corner(sa, sb)]] : SIDES.filter((t) => isVertical(t) !== isVertical(sa)).map((t) => [corner(sa, t), corner(t, sb)]);
      const [fromA, outA] = exit(a, sa);
      const [fromB, outB] = exit(b, sb);
      for (const corners of ways) {
        const route: Point[] = [fromA, outA, ...corners, outB, fromB];
        if (!best || length(route) < length(best)) best = route;
      }
    }
  }
  return best;
}

/** The kinds a view's links can join above the die, outermost first: a view's links join the outermost it draws. */
const LINKED_KINDS = ["superpod", "row", "rack", "server"] as const satisfies readonly NodeKind[];

/**
 * The kind of node a view's links join: dies in a server; else the outermost of super pods, rows, racks and servers
 * the view draws besides its own node (a super pod view's racks or servers, a row's racks, a rack's servers).
 */
export function linkEndpointKind(view: Pick<TopologyView, "level" | "nodes">): NodeKind {
  if (view.level === "server") return "die";
  const drawn = new Set(view.nodes.map((node) => node.kind));
  return LINKED_KINDS.find((kind) => kind !== view.level && drawn.has(kind)) ?? "server";
}

/** Whether a view's links join aggregates (super pods, rows, racks), whose links carry their counts when few. */
export function linksJoinAggregates(view: Pick<TopologyView, "level" | "nodes">): boolean {
  const kind = linkEndpointKind(view);
  return kind === "superpod" || kind === "row" || kind === "rack";
}

/** The drawn line of one link: between the boxes of its two ends, a polyline when it goes round the grid. */
export interface LinkSegment {
  link: TopologyLink;
  points: Point[];
  /** Its two ends' boxes. */
  ends: [Box, Box];
}

export function linkSegments(view: TopologyView): LinkSegment[] {
  const endpointKind = linkEndpointKind(view);
  const ends = new Map<string, TopologyNode>();
  for (const node of view.nodes) if (node.kind === endpointKind) ends.set(node.id, node);
  const boxes = [...ends.values()];
  const segments: LinkSegment[] = [];
  for (const link of view.links) {
    const a = ends.get(link.source);
    const b = ends.get(link.target);
    if (!a || !b) continue;
    // Neighbours are joined straight across the gap between them; far ones (a ring closing on itself) go round
    // the outside of the grid, so they never run across other boxes.
    const points = (touching(a, b) ? null : routeAround(a, b, boxes)) ?? clipBetween(a, b);
    segments.push({ link, points, ends: [a, b] });
  }
  return segments;
}

/**
 * Where a link's count goes so that it never lies over a box: above two boxes side by side, centred on the gap
 * between them (in the gap between rows, or above the grid); beside the link in the gap between two boxes one
 * above the other. `room` is the height of that free strip, in view units.
 */
export function linkLabelPlace(a: Box, b: Box): { anchor: Point; where: "above" | "beside"; room: number } {
  const [left, right] = a.x <= b.x ? [a, b] : [b, a];
  const [upper, lower] = a.y <= b.y ? [a, b] : [b, a];
  const gapX = right.x - (left.x + left.width);
  const gapY = lower.y - (upper.y + upper.height);
  if (gapX >= gapY) return { anchor: [left.x + left.width + gapX / 2, Math.min(a.y, b.y)], where: "above", room: gapX };
  return { anchor: [upper.x + upper.width / 2, upper.y + upper.height + gapY / 2], where: "beside", room: gapY };
}
