import { describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { largeA2Cluster, largeA3Cluster } from "@/lib/topology/large-cluster";
import { indexOf } from "@/lib/topology/test-support";
import { buildTopologyView } from "@/lib/topology/view";
import { clipBetween, linkEndpointKind, linkLabelPlace, linkSegments, linksJoinAggregates, ROUTE_MARGIN, routeAround, touching } from "./link-routing";

describe("link routing", () => {
  it("clips a link to the borders of the boxes it joins", () => {
    expect(clipBetween({ x: 0, y: 0, width: 10, height: 10 }, { x: 30, y: 0, width: 10, height: 10 })).toEqual([
      [10, 5],
      [30, 5],
    ]);
  });

  it("tells neighbours (joined straight) from far boxes (routed round the grid)", () => {
    const box = (x: number, y: number) => ({ x, y, width: 10, height: 10 });
    expect(touching(box(0, 0), box(15, 0))).toBe(true);
    expect(touching(box(0, 0), box(0, 15))).toBe(true);
    expect(touching(box(0, 0), box(0, 45))).toBe(false);
    expect(touching(box(0, 0), box(15, 15))).toBe(false);
  });

  it("routes the link closing a super pod's HCCS ring round the outside of its servers, crossing none", () => {
    // 32 servers end in the second column of the last row, 48 in the first column: both ways round are taken.
    for (const [cluster, pod] of [
      [largeA3Cluster(32, 32), "pod-0"],
      [demoA3Cluster(), "0"],
    ] as const) {
      const view = buildTopologyView(indexOf(cluster), "superpod", pod);
      const servers = view.nodes.filter((n) => n.kind === "server");
      const segments = linkSegments(view);
      const routed = segments.filter(({ points }) => points.length > 2);
      expect(routed).toHaveLength(1);
      for (const { points } of segments) {
        for (const [i, from] of points.slice(1).entries()) expect(servers.filter((box) => crosses(points[i]!, from, box)).map((box) => box.id)).toEqual([]);
      }
      // It leaves and enters its servers' boxes at their sides, and runs outside the grid in between.
      const [first, last] = routed[0]!.ends;
      const route = routed[0]!.points;
      expect(onSide(route[0]!, first)).toBe(true);
      expect(onSide(route.at(-1)!, last)).toBe(true);
      for (const point of route.slice(1, -1)) {
        const outside = point[0] < 0 || point[1] < 0 || point[0] > view.bounds.width || point[1] > view.bounds.height;
        expect(outside).toBe(true);
      }
    }
  });

  it("goes round the shorter way between boxes on opposite sides of the grid, and not at all from inside it", () => {
    const box = (x: number, y: number) => ({ x, y, width: 10, height: 10 });
    const grid = [box(0, 0), box(20, 0), box(40, 0), box(0, 20), box(20, 20), box(40, 20), box(0, 40), box(20, 40), box(40, 40)];
    const m = ROUTE_MARGIN;
    // From the left of the middle row to the right of it: over the top or under the bottom, the same length; never
    // through the middle box.
    const route = routeAround(grid[3]!, grid[5]!, grid)!;
    expect(route[0]).toEqual([0, 25]);
    expect(route.at(-1)).toEqual([50, 25]);
    expect(route).toHaveLength(6);
    for (const [i, to] of route.slice(1).entries()) expect(grid.filter((b) => crosses(route[i]!, to, b))).toEqual([]);
    // Top left to top right: along the top.
    expect(routeAround(grid[0]!, grid[2]!, grid)).toEqual([
      [5, 0],
      [5, -m],
      [45, -m],
      [45, 0],
    ]);
    expect(routeAround(grid[4]!, grid[0]!, grid)).toBeNull();
  });

  it("draws the links between rows and between racks as between super pods: one line per link the view counts", () => {
    // 1,040 plain servers: 2 rows of racks (128 and 2) joined by RoCE rails; a row's 128 racks joined in a line.
    const plain = indexOf(largeA2Cluster(1040));
    for (const [level, id, kind, drawn] of [
      ["cluster", null, "row", 1],
      ["row", "row0", "rack", 127],
      ["row", "row1", "rack", 1],
      ["rack", "rack3", "server", 7],
    ] as const) {
      const view = buildTopologyView(plain, level, id);
      expect(linkEndpointKind(view)).toBe(kind);
      expect(linksJoinAggregates(view)).toBe(kind !== "server");
      const segments = linkSegments(view);
      expect(segments).toHaveLength(drawn);
      expect(segments.map(({ link }) => link)).toEqual(view.links);
    }
    // A super pod drawn by rack (more servers than POD_SERVERS_BY_RACK) joins its racks; the cluster its super pods.
    const racked = indexOf(largeA3Cluster(2, [65, 4]));
    expect(linkEndpointKind(buildTopologyView(racked, "superpod", "pod-0"))).toBe("rack");
    expect(linkEndpointKind(buildTopologyView(racked, "cluster", null))).toBe("superpod");
    expect(linkEndpointKind(buildTopologyView(racked, "superpod", "pod-1"))).toBe("server");
  });

  it("places a count beside a link between pods one above the other, and drops it when the gap is too thin for it", () => {
    const upper = { x: 0, y: 0, width: 100, height: 80 };
    const lower = { x: 0, y: 110, width: 100, height: 80 };
    expect(linkLabelPlace(upper, lower)).toEqual({ anchor: [50, 95], where: "beside", room: 30 });
    expect(linkLabelPlace(lower, { x: 130, y: 110, width: 100, height: 80 })).toEqual({ anchor: [115, 110], where: "above", room: 30 });
  });
});

/** Whether an axis-aligned segment runs through the inside of a box (along or up to its edge does not count). */
function crosses(from: [number, number], to: [number, number], box: { x: number; y: number; width: number; height: number }): boolean {
  const [x0, x1] = [Math.min(from[0], to[0]), Math.max(from[0], to[0])];
  const [y0, y1] = [Math.min(from[1], to[1]), Math.max(from[1], to[1])];
  return x0 < box.x + box.width && x1 > box.x && y0 < box.y + box.height && y1 > box.y;
}

function onSide([x, y]: [number, number], box: { x: number; y: number; width: number; height: number }): boolean {
  const within = (v: number, a: number, b: number) => v >= a && v <= b;
  return (
    ((x === box.x || x === box.x + box.width) && within(y, box.y, box.y + box.height)) ||
    ((y === box.y || y === box.y + box.height) && within(x, box.x, box.x + box.width))
  );
}
