import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from "echarts";
import { LINK_STYLES } from "./colors";
import type { LinkSegment, Point } from "./link-routing";

/**
 * A view's links drawn as one path per link kind (a custom series, an item per kind), not as an element per link
 * (ECharts' lines series): every wheel step of a zoom lays out and paints the links again, and an Atlas 950 server's
 * 2 hops (320 links) were 12 ms of each step's task in ECharts' lines (a Polyline per link, diffed and restyled),
 * which kept the zoom's median task at 56–61 ms on 2 cores (issue 21: no task over 50 ms). One path per kind is
 * what ECharts' own `large` lines draw, but their hover gives no data index (LargeLineDraw sets it only when drawn
 * progressively, and never for the first line), so the tooltip finds the link under the pointer itself (linkNear).
 */
export function linksByKind(segments: readonly LinkSegment[]): LinkSegment[][] {
  const groups = new Map<string, LinkSegment[]>();
  for (const segment of segments) {
    const group = groups.get(segment.link.kind);
    if (group) group.push(segment);
    else groups.set(segment.link.kind, [segment]);
  }
  return [...groups.values()];
}

/**
 * A group's item in the series: the box its points span, as x from, x to, y from, y to. The data zoom's weak filter
 * keeps an item while its box reaches into the window on each axis, as it does the cells' boxes.
 */
function spanOf(group: readonly LinkSegment[]): [number, number, number, number] {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const { points } of group) {
    for (const [x, y] of points) {
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return [x0, x1, y0, y1];
}

/** The links' series: each kind's links one path in its kind's colour, width and dash, on the links' canvas. */
export function linkPathsSeries(groups: readonly LinkSegment[][], zlevel: number) {
  const renderItem = (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
    const group = groups[params.dataIndex];
    if (!group?.length) return null;
    const style = LINK_STYLES[group[0]!.link.kind];
    let pathData = "";
    for (const { points } of group) {
      points.forEach((point, i) => {
        const [x, y] = api.coord(point) as [number, number];
        pathData += `${i === 0 ? "M" : "L"}${x.toFixed(1)} ${y.toFixed(1)}`;
      });
    }
    return {
      type: "path",
      // A kind's path is one element: hovering one link would thicken every link of its kind (ECharts reads the flag
      // per element; the series' `emphasis.disabled` left it on).
      emphasisDisabled: true,
      shape: { pathData },
      style: { fill: "none", stroke: style.color, lineWidth: style.width, lineDash: style.type, opacity: 0.9 },
    };
  };
  return {
    id: "links",
    type: "custom" as const,
    coordinateSystem: "cartesian2d",
    encode: { x: [0, 1], y: [2, 3] },
    data: groups.map(spanOf),
    renderItem,
    clip: true,
    zlevel,
    z: 3,
  };
}

/** The distance (pixels) from `p` to the line from `a` to `b`. */
function distanceToLine(p: Point, a: number[], b: number[]): number {
  const [dx, dy] = [b[0]! - a[0]!, b[1]! - a[1]!];
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]!) * dx + (p[1] - a[1]!) * dy) / length));
  return Math.hypot(p[0] - (a[0]! + t * dx), p[1] - (a[1]! + t * dy));
}

/**
 * The link of `group` drawn nearest the pointer `at` (pixels), within `tolerance` pixels of its line, found against
 * the points as drawn now (`toPixel`: the zoom moves them); undefined when none is that near.
 */
export function linkNear(group: readonly LinkSegment[], at: Point, toPixel: (point: Point) => number[], tolerance = 6): LinkSegment | undefined {
  let nearest: LinkSegment | undefined;
  let best = tolerance;
  for (const segment of group) {
    const pixels = segment.points.map(toPixel);
    for (let i = 1; i < pixels.length; i++) {
      const distance = distanceToLine(at, pixels[i - 1]!, pixels[i]!);
      if (distance <= best) {
        best = distance;
        nearest = segment;
      }
    }
  }
  return nearest;
}
