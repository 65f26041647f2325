import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from "echarts";
import { describe, expect, it } from "vitest";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { largeA2Cluster, largeA3Cluster } from "@/lib/topology/large-cluster";
import { indexOf } from "@/lib/topology/test-support";
import type { TopologyNode } from "@/lib/topology/model";
import { buildTopologyView } from "@/lib/topology/view";
import { healthOverlay, withHealth } from "@/lib/topology/health-overlay";
import { jobDieSet, withJobAggregates } from "@/lib/topology/job-aggregates";
import { healthBar, palette, type ChartLabels } from "./cell-painter";
import { chartOption, firstLabelStyles, fitScale, fittedExtent, labelStyle, selectionOutline } from "./chart-option";
import { HEALTH_COLORS, LINK_STYLES, OVERLAY_COLORS } from "./colors";
import { linkSegments, ROUTE_MARGIN } from "./link-routing";

const labels: ChartLabels = {
  superPod: (id) => `Super pod ${id}`,
  plane: (n) => `Bus plane ${n.planeIndex}`,
  switch: (n) => `Chip ${n.switchIndex}`,
  npu: (i) => `NPU ${i}`,
  die: (n) => `Die ${n.dieIndex}`,
  dieShort: (n) => `dev ${n.deviceId}`,
  counts: () => "",
  jobCounts: (job) => `job ${job.dies} (${job.faulty} faulty)`,
  healthCounts: (c) => `${c.faulty} faulty`,
  rank: (r) => `rank ${r}`,
  linkCount: (k, c) => `${k} ×${c}`,
  tooltip: (n, rank) => (rank === undefined ? n.id : `${n.id} rank ${rank}`),
  linkTooltip: (k, _count, source, target) => `${k} ${source}-${target}`,
};

describe("chart option", () => {
  it("draws a server's 16 dies and 8 dashed backup-rail links, sized to the fitted canvas", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    const size = { width: 1000, height: 600 };
    const option = chartOption({ view, size, theme: "light", ranks: undefined, labels });
    const [cells, links] = option.series;
    const fit = fitScale(view.bounds, size);

    // One cell per node, in the view's order (containers first), each one a rect of its box at the fitted scale.
    expect(cells.data).toHaveLength(view.nodes.length);
    const drawnDies = paint(cells, fit, view.nodes).filter(({ node, element }) => node.kind === "die" && element);
    expect(drawnDies).toHaveLength(16);
    const first = drawnDies[0]!;
    const expected = { x: first.node.x * fit, y: first.node.y * fit, width: first.node.width * fit, height: first.node.height * fit };
    for (const [side, value] of Object.entries(expected)) expect(first.element!.shape[side as keyof typeof expected]).toBeCloseTo(value);
    expect(first.element!.label!.style.text).toContain("rank 48");
    // The label is the rect's sibling in a group, not its attached text, so that a progressive chunk draws both on
    // the layer ECharts never clears (chart-option.ts, cellText); centred in the die.
    expect(first.element!.label!.style).toMatchObject({ align: "center", verticalAlign: "middle" });
    expect(first.element!.label!.x).toBeCloseTo(expected.x + expected.width / 2);
    expect(first.element!.label!.y).toBeCloseTo(expected.y + expected.height / 2);

    // The 8 links of one kind are one path, dashed in the backup rails' colour.
    expect(links.data).toHaveLength(1);
    const drawnLinks = paintLinks(links);
    expect(drawnLinks).toHaveLength(8);
    expect(drawnLinks.every((line) => line.dash === "dashed" && line.color === LINK_STYLES["backup-rail"].color)).toBe(true);
    // Each backup rail runs across the gap between the two dies of one NPU: from the right side of die 2k to the left of 2k+1.
    const dies = new Map(view.nodes.filter((n) => n.kind === "die").map((n) => [n.id, n]));
    const ends = linkSegments(view).map((segment) => {
      const [a, b] = [dies.get(segment.link.source)!, dies.get(segment.link.target)!];
      return [
        [a.x + a.width, a.y + a.height / 2],
        [b.x, b.y + b.height / 2],
      ];
    });
    expect(drawnLinks.map((line) => line.points)).toEqual(ends.map((points) => points.map((point) => point.map((v) => Number(v.toFixed(1))))));
    // The path's item spans its links, so the data zoom keeps it while any of them is on screen.
    const xs = ends.flat().map(([x]) => x!);
    const ys = ends.flat().map(([, y]) => y!);
    expect(links.data[0]).toEqual([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]);

  });

  it("draws a job over a server: its dies in their health, the rest dimmed, the suspect outlined red and a timed-out die amber", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    const overlay = { dies: new Map([["sp0-node03/d0", "member"], ["sp0-node03/d1", "suspect"], ["sp0-node03/d2", "timeout"]] as const) };
    const option = chartOption({ view, size: { width: 1000, height: 600 }, theme: "light", ranks: undefined, labels, overlay });
    const dies = new Map(paint(option.series[0], fitScale(view.bounds, { width: 1000, height: 600 }), view.nodes).filter(({ node }) => node.kind === "die").map(({ node, element }) => [node.id, element!.style]));
    expect(dies.get("sp0-node03/d0")).toMatchObject({ fill: HEALTH_COLORS.light.unknown, lineWidth: 0.5 });
    expect(dies.get("sp0-node03/d1")).toMatchObject({ stroke: OVERLAY_COLORS.suspect, lineWidth: 3 });
    expect(dies.get("sp0-node03/d2")).toMatchObject({ stroke: OVERLAY_COLORS.timeout, lineWidth: 2 });
    expect(dies.get("sp0-node03/d5")!.fill).not.toBe(HEALTH_COLORS.light.unknown);
  });

  it("draws a job over aggregated super pods: each pod with its share of the job in words, the pod with the job's faulty die outlined red, pods without the job dimmed", () => {
    const index = indexOf(largeA3Cluster(64, 17));
    const health = healthOverlay(index, [{ serverId: "p3-s001", superPodId: "pod-3", deviceId: 2, npuIndex: null, planeKey: null, level: "SeparateNPU" } as never]);
    const jobDies = ["p3-s001/d2", "p3-s001/d3", "p4-s000/d0", "nowhere/d1"];
    const { view, unplaced } = withJobAggregates(withHealth(buildTopologyView(index, "cluster", null), health), index, jobDieSet(index, jobDies), health);
    expect(unplaced).toBe(1);
    expect(view.nodes.filter((n) => n.job).map((n) => [n.id, n.job])).toEqual([
      ["pod-3", { dies: 2, faulty: 1, degraded: 0 }],
      ["pod-4", { dies: 1, faulty: 0, degraded: 0 }],
    ]);
    const size = { width: 1600, height: 1000 };
    const overlay = { dies: new Map(jobDies.map((id) => [id, "member" as const])) };
    const cells = paint(chartOption({ view, size, theme: "light", ranks: undefined, labels, overlay }).series[0], fitScale(view.bounds, size) * 4, view.nodes);
    const pod = (id: string) => cells.find(({ node }) => node.id === id)!.element!;
    expect(pod("pod-3").style).toMatchObject({ stroke: OVERLAY_COLORS.suspect, lineWidth: 3 });
    expect(pod("pod-3").label?.style.text).toContain("job 2 (1 faulty)");
    expect(pod("pod-4").label?.style.text).toContain("job 1 (0 faulty)");
    expect(pod("pod-5").style.fill).toBe(palette.light.dimmed);
    expect(pod("pod-4").style.fill).not.toBe(palette.light.dimmed);
  });

  it("outlines the selected node where it is drawn, and nothing for a node the view does not have", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    const die = view.nodes.find((n) => n.id === "sp0-node03/d5")!;
    const toPixel = ([x, y]: [number, number]) => [10 + 2 * x, 20 + 2 * y];
    expect(selectionOutline(view, "die:sp0-node03/d5", toPixel)).toEqual({ x: 10 + 2 * die.x, y: 20 + 2 * die.y, width: 2 * die.width, height: 2 * die.height });
    expect(selectionOutline(view, "die:sp0-node04/d5", toPixel)).toBeNull();
    expect(selectionOutline(view, null, toPixel)).toBeNull();
  });

  it("draws the super pods of 16,384 dies progressively, with every HCCS link, and folds dies away when zoomed out", () => {
    const large = indexOf(largeA3Cluster(32, 32));
    const view = buildTopologyView(large, "superpod", "pod-7");
    const size = { width: 1200, height: 700 };
    const [cells, links] = chartOption({ view, size, theme: "light", ranks: undefined, labels }).series;
    expect(cells.data.length).toBeGreaterThan(cells.progressiveThreshold);
    expect(cells.progressive).toBeLessThan(cells.data.length);
    // 32 servers in a ring: 32 HCCS links, all drawn.
    expect(view.links.filter((l) => l.kind === "hccs")).toHaveLength(32);
    expect(paintLinks(links)).toHaveLength(32);

    const fit = fitScale(view.bounds, size);
    const atFit = paint(cells, fit, view.nodes);
    expect(atFit.filter(({ node, element }) => node.kind === "die" && element)).toHaveLength(512);
    // No die label at the fit (text layout is the costly part); the servers carry theirs.
    expect(atFit.filter(({ node, element }) => node.kind === "die" && element?.label)).toHaveLength(0);
    expect(atFit.filter(({ node, element }) => node.kind === "server" && element?.label)).toHaveLength(32);
    const zoomedIn = paint(cells, fit * 8, view.nodes).filter(({ node, element }) => node.kind === "die" && element?.label);
    expect(zoomedIn).toHaveLength(512);
    // On a small canvas a server's name shrinks to its header, above the dies, and goes once the header is too short.
    const small = paint(cells, 0.4, view.nodes).find(({ node }) => node.kind === "server")!.element!.label!;
    expect(small.style.fontSize).toBeLessThanOrEqual(24 * 0.4);
    expect(paint(cells, 0.3, view.nodes).filter(({ node, element }) => node.kind === "server" && element?.label)).toHaveLength(0);
    const zoomedOut = paint(cells, fit / 6, view.nodes);
    expect(zoomedOut.filter(({ node, element }) => (node.kind === "die" || node.kind === "npu") && element)).toHaveLength(0);
    expect(zoomedOut.filter(({ node, element }) => node.kind === "server" && element)).toHaveLength(32);
  });

  it("fills a super pod with its health once its servers are too small to draw", () => {
    const view = buildTopologyView(indexOf(largeA3Cluster(32, 32)), "cluster", null);
    const faulty = { ...view, nodes: view.nodes.map((n) => (n.kind === "superpod" && n.id === "pod-3" ? { ...n, health: "faulty" as const } : n)) };
    const size = { width: 1200, height: 700 };
    const [cells, links] = chartOption({ view: faulty, size, theme: "light", ranks: undefined, labels }).series;
    // The RoCE plane joins neighbouring pods: 31 links between 32 pods.
    expect(paintLinks(links)).toHaveLength(31);
    const fit = fitScale(view.bounds, size);
    const pod = (scale: number) => paint(cells, scale, view.nodes).find(({ node }) => node.kind === "superpod" && node.id === "pod-3")!.element!;
    expect(paint(cells, fit, view.nodes).filter(({ node, element }) => node.kind === "server" && element)).toHaveLength(1024);
    expect(pod(fit).style.fill).not.toBe(HEALTH_COLORS.light.faulty);
    expect(paint(cells, fit / 3, view.nodes).filter(({ node, element }) => node.kind === "server" && element)).toHaveLength(0);
    expect(pod(fit / 3).style.fill).toBe(HEALTH_COLORS.light.faulty);
  });

  it("draws an aggregated super pod as a distribution, not one colour: one faulty die of 4,352 still shows, outlined and in words", () => {
    const index = indexOf(largeA3Cluster(64, 17));
    const view = withHealth(
      buildTopologyView(index, "cluster", null),
      healthOverlay(index, [{ superPodId: "pod-9", serverId: "p9-s004", npuIndex: 1, deviceId: 3, planeKey: null, level: "RestartNPU" }]),
    );
    const size = { width: 1200, height: 700 };
    const [cells] = chartOption({ view, size, theme: "dark", ranks: undefined, labels }).series;
    const drawn = paint(cells, fitScale(view.bounds, size), view.nodes);
    const cell = (id: string) => drawn.find(({ node }) => node.id === id)!.element!;
    const box = cell("pod-9");
    const bar = box.bar;
    expect(box.style.fill).not.toBe(HEALTH_COLORS.dark.faulty);
    expect(box.style.stroke).toBe(HEALTH_COLORS.dark.faulty);
    expect(bar.map((segment) => segment.style.fill)).toEqual([HEALTH_COLORS.dark.faulty, HEALTH_COLORS.dark.healthy]);
    // 1 of 272 dies would be a sliver; the bar gives it at least 4 pixels.
    expect(bar[0]!.shape.width).toBeGreaterThanOrEqual(4 * 0.99);
    expect(box.label?.style.text).toContain("1 faulty");
    // A healthy pod: one green segment, a plain outline.
    const healthy = cell("pod-10");
    expect(healthy.bar.map((segment) => segment.style.fill)).toEqual([HEALTH_COLORS.dark.healthy]);
    expect(healthy.style.stroke).not.toBe(HEALTH_COLORS.dark.faulty);
  });

  it("draws a row of racks as a super pod is drawn: 3 faulty dies of its 8,192 outline it, take a visible share of its bar and are named in words", () => {
    const index = indexOf(largeA2Cluster(2056));
    const dieFault = (serverId: string, deviceId: number) => ({ superPodId: null, serverId, npuIndex: null, deviceId, planeKey: null, level: "SeparateNPU" as const });
    const view = withHealth(buildTopologyView(index, "cluster", null), healthOverlay(index, [dieFault("a2-1100", 3), dieFault("a2-1101", 5), dieFault("a2-2000", 0)]));
    const size = { width: 1200, height: 700 };
    const [cells] = chartOption({ view, size, theme: "light", ranks: undefined, labels }).series;
    const drawn = paint(cells, fitScale(view.bounds, size), view.nodes);
    const cell = (id: string) => drawn.find(({ node }) => node.id === id)!.element!;
    const box = cell("row1");
    const bar = box.bar;
    expect(box.style.stroke).toBe(HEALTH_COLORS.light.faulty);
    expect(box.style.lineWidth).toBe(3);
    expect(bar.map((segment) => segment.style.fill)).toEqual([HEALTH_COLORS.light.faulty, HEALTH_COLORS.light.healthy]);
    // 3 of 8,192 would be under a pixel wide; the bar gives them at least 4.
    expect(bar[0]!.shape.width).toBeGreaterThanOrEqual(4 * 0.99);
    expect(box.label?.style.text).toContain("3 faulty");
    const healthyBox = cell("row0");
    expect(healthyBox.style.stroke).not.toBe(HEALTH_COLORS.light.faulty);
    expect(healthyBox.bar.map((segment) => segment.style.fill)).toEqual([HEALTH_COLORS.light.healthy]);
  });

  it("tiles an aggregate's bar exactly, worst first, every present state at least its minimum", () => {
    expect(healthBar({ healthy: 131_069, degraded: 0, faulty: 3, unknown: 0 }, 0.02)).toEqual([
      { tone: "faulty", from: 0, to: 0.02 },
      { tone: "healthy", from: 0.02, to: 1 },
    ]);
    expect(healthBar({ healthy: 0, degraded: 0, faulty: 0, unknown: 0 }, 0.02)).toEqual([]);
    const even = healthBar({ healthy: 25, degraded: 25, faulty: 25, unknown: 25 }, 0.02);
    expect(even.map((s) => s.tone)).toEqual(["faulty", "degraded", "unknown", "healthy"]);
    expect(even.map((s) => s.to - s.from)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it("fills a bus plane's bar with its health, its name in a font that fits the bar, none when the bar is too thin", () => {
    const planes = Array.from({ length: 7 }, (_, p) => ({ key: `pod:0/ub:${p}`, index: p, switches: 8, servers: 48, uplinks: 384 }));
    const view = buildTopologyView(indexOf(demoA3Cluster()), "superpod", "0", { busPlanes: planes });
    const degraded = { ...view, nodes: view.nodes.map((n) => (n.kind === "plane" ? { ...n, health: n.planeIndex === 1 ? ("degraded" as const) : ("healthy" as const) } : n)) };
    const [cells, links] = chartOption({ view: degraded, size: { width: 1000, height: 700 }, theme: "light", ranks: undefined, labels }).series;
    expect(links.data).toEqual([]);
    const bars = (scale: number) => paint(cells, scale, degraded.nodes).filter(({ node }) => node.kind === "plane");
    expect(bars(1).map(({ element }) => element!.style.fill)).toEqual(planes.map((p) => (p.index === 1 ? HEALTH_COLORS.light.degraded : HEALTH_COLORS.light.healthy)));
    const label = bars(0.3)[1]!.element!.label!;
    expect(label.style.text).toContain("Bus plane 1");
    expect(label.style.fontSize).toBeLessThanOrEqual(40 * 0.3 * 0.7);
    expect(bars(0.2).filter(({ element }) => element?.label)).toHaveLength(0);
  });

  it("keeps the operator's zoom window and fits the view with equal units on both axes", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "superpod", "0");
    const size = { width: 1000, height: 600 };
    const option = chartOption({ view, size, window: { x: [20, 40], y: [30, 50] }, theme: "dark", ranks: undefined, labels });
    expect(option.dataZoom.map((z) => [z.start, z.end])).toEqual([
      [20, 40],
      [30, 50],
    ]);
    // The super pod's ring closes round the grid: the fit leaves room for it on every side.
    const outset = ROUTE_MARGIN + 4;
    const extent = fittedExtent(view.bounds, size, outset);
    expect(option.xAxis).toMatchObject({ min: extent.x[0], max: extent.x[1] });
    const pixelsPerUnit = fitScale({ width: view.bounds.width + 2 * outset, height: view.bounds.height + 2 * outset }, size);
    expect((extent.x[1] - extent.x[0]) * pixelsPerUnit).toBeCloseTo(size.width - 56);
    expect((extent.y[1] - extent.y[0]) * pixelsPerUnit).toBeCloseTo(size.height - 56);
    expect(extent.x[0]).toBeLessThanOrEqual(-outset + 1e-9);
    expect(extent.y[1]).toBeGreaterThanOrEqual(view.bounds.height + outset - 1e-9);
  });

  it("puts the count of the RoCE plane between two super pods above them, never over a pod, at any canvas width", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "cluster", null);
    const pods = view.nodes.filter((n) => n.kind === "superpod");
    for (const size of [
      { width: 520, height: 640 },
      { width: 860, height: 640 },
      { width: 1600, height: 900 },
    ]) {
      const option = chartOption({ view, size, theme: "light", ranks: undefined, labels });
      const [, links, counts] = option.series;
      expect(paintLinks(links)).toHaveLength(1);
      expect(counts.data).toHaveLength(1);
      // ECharts' coord at the fit: the axes' range over the grid's pixels.
      const scale = (size.width - 56) / (option.xAxis.max - option.xAxis.min);
      const coord = ([x, y]: number[]) => [28 + (x! - option.xAxis.min) * scale, 28 + (y! - option.yAxis.min) * scale];
      const text = paintText(counts, coord);
      expect(text?.style.text).toBe("roce ×768");
      // Bottom-aligned above the pods' top edge, and inside the canvas.
      expect(text!.style.verticalAlign).toBe("bottom");
      for (const pod of pods) expect(text!.y).toBeLessThan(coord([pod.x, pod.y])[1]!);
      expect(text!.y - 11).toBeGreaterThanOrEqual(0);
    }
  });

  it("draws the RoCE rails between two rows of racks, and between a row's racks, as between super pods, with the count when few", () => {
    const plain = indexOf(largeA2Cluster(1040));
    const size = { width: 1000, height: 700 };
    const count = (view: ReturnType<typeof buildTopologyView>) => {
      const option = chartOption({ view, size, theme: "light", ranks: undefined, labels });
      const [, links, counts] = option.series;
      const scale = (size.width - 56) / (option.xAxis.max - option.xAxis.min);
      const coord = ([x, y]: number[]) => [28 + (x! - option.xAxis.min) * scale, 28 + (y! - option.yAxis.min) * scale];
      return { links: paintLinks(links), text: counts.data.length > 0 ? paintText(counts, coord)?.style.text : undefined };
    };
    const rows = count(buildTopologyView(plain, "cluster", null));
    expect(rows.links).toHaveLength(1);
    expect(rows.links[0]).toMatchObject({ color: LINK_STYLES.roce.color, dash: LINK_STYLES.roce.type });
    expect(rows.text).toBe("roce ×8");
    const lastRow = count(buildTopologyView(plain, "row", "row1"));
    expect(lastRow.links).toHaveLength(1);
    expect(lastRow.text).toBe("roce ×8");
    // 127 links between 128 racks: drawn, their counts on hover only.
    const fullRow = count(buildTopologyView(plain, "row", "row0"));
    expect(fullRow.links).toHaveLength(127);
    expect(fullRow.text).toBeUndefined();
  });

  it("draws no cell or link with a hover state: hovering shows the tooltip and redraws nothing", () => {
    // A hovered element of a progressive series is drawn again on a canvas of its own, made on the first hover: 60–100 ms
    // of the first hover of an Atlas 950 server's 2 hops (issue 21).
    const size = { width: 1200, height: 700 };
    const server = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    const pods = buildTopologyView(indexOf(largeA3Cluster(64, 17)), "cluster", null);
    for (const view of [server, pods]) {
      const [cells, links] = chartOption({ view, size, theme: "light", ranks: undefined, labels }).series;
      const api = { coord: ([x, y]: number[]) => [x! * 40, y! * 40] } as unknown as CustomSeriesRenderItemAPI;
      const drawn = [cells, links].flatMap((series) => series.data.map((_, dataIndex) => series.renderItem({ dataIndex } as CustomSeriesRenderItemParams, api)));
      const elements = drawn.filter(Boolean) as { emphasisDisabled?: boolean }[];
      expect(elements.length).toBeGreaterThan(view.nodes.length * 0.9);
      expect(elements.filter((element) => element.emphasisDisabled !== true)).toEqual([]);
    }
  });

  it("tells the node or link under the pointer in its tooltip", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    // The canvas drawn at 10 pixels a view unit, the pointer somewhere on it.
    const toPixel = ([x, y]: [number, number]) => [x * 10, y * 10];
    let at: [number, number] = [0, 0];
    const option = chartOption({ view, size: { width: 1000, height: 600 }, theme: "light", ranks: new Map([["sp0-node03/d0", 7]]), labels, pointer: () => ({ at, toPixel }) });
    const die = view.nodes.findIndex((n) => n.id === "sp0-node03/d0");
    expect(option.tooltip.formatter({ seriesId: "cells", dataIndex: die })).toBe("sp0-node03/d0 rank 7");
    // A kind's links are one path: the tooltip names the one under the pointer, within a few pixels of its line.
    const rails = linkSegments(view);
    const [from, to] = rails[3]!.points.map((point) => toPixel(point));
    at = [(from![0]! + to![0]!) / 2, (from![1]! + to![1]!) / 2 + 4];
    expect(option.tooltip.formatter({ seriesId: "links", dataIndex: 0 })).toBe(`backup-rail ${rails[3]!.link.source}-${rails[3]!.link.target}`);
    at = [at[0], at[1] + 10];
    expect(option.tooltip.formatter({ seriesId: "links", dataIndex: 0 })).toBe("");
  });
});

describe("label fonts", () => {
  const label = { position: "inside" as const, fontSize: 12, width: 100, bold: true };

  it("draws a label wholly in bold as plain bold text, and one with a bold part as rich text", () => {
    expect(labelStyle({ ...label, text: "{b|sp0-node03}" }, "#000")).toMatchObject({ text: "sp0-node03", fontWeight: "bold", rich: undefined });
    const mixed = labelStyle({ ...label, text: "{b|Die 0}\n10.0.0.1" }, "#000");
    expect(mixed).toMatchObject({ text: "{b|Die 0}\n10.0.0.1", fontWeight: undefined });
    expect(mixed.rich).toEqual({ b: { fontWeight: "bold", fill: "#000", fontSize: 12 } });
    expect(labelStyle({ ...label, bold: false, text: "5" }, "#000")).toMatchObject({ text: "5", fontWeight: undefined, rich: undefined });
  });

  it("names each font a new view's first drawing uses once, every label drawn at the fit in one of them", () => {
    const view = buildTopologyView(indexOf(demoA3Cluster()), "server", "sp0-node03");
    const size = { width: 1000, height: 600 };
    const input = { view, size, theme: "light" as const, ranks: undefined, labels };
    const fonts = firstLabelStyles(input);
    const fontOf = (style: { fontSize: number; fontWeight?: string; rich?: unknown }) => `${style.fontSize}|${style.fontWeight ?? ""}|${style.rich ? "rich" : ""}`;
    expect(new Set(fonts.map(fontOf)).size).toBe(fonts.length);
    const [cells] = chartOption(input).series;
    const drawn = paint(cells, fitScale(view.bounds, size), view.nodes).flatMap(({ element }) => (element?.label ? [fontOf(element.label.style)] : []));
    expect(drawn.length).toBeGreaterThan(fonts.length);
    expect(new Set(drawn)).toEqual(new Set(fonts.map(fontOf)));
  });
});

type Series = { data: number[][]; renderItem: (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI) => CustomSeriesRenderItemReturn };
interface DrawnRect {
  type?: string;
  shape: { x: number; y: number; width: number; height: number };
  style: Record<string, unknown>;
}
interface DrawnText {
  type: "text";
  x: number;
  y: number;
  style: { text: string; fontSize: number; fontWeight?: string; rich?: unknown; align?: string; verticalAlign?: string };
}
/** A cell as drawn: its box, its label and an aggregate's bar (renderCell groups them when there is more than a box). */
interface DrawnCell extends DrawnRect {
  label?: DrawnText;
  bar: DrawnRect[];
}

function cellOf(drawn: DrawnRect | { type: "group"; children: (DrawnRect | DrawnText)[] } | null): DrawnCell | null {
  if (!drawn) return null;
  if (!("children" in drawn)) return { ...drawn, bar: [] };
  const [box, ...rest] = drawn.children as [DrawnRect, ...(DrawnRect | DrawnText)[]];
  return { ...box, label: rest.find((child): child is DrawnText => child.type === "text"), bar: rest.filter((child): child is DrawnRect => child.type === "rect") };
}

/** Runs a custom series' renderItem over its data at `pixelsPerUnit`, as ECharts would with the view's origin at 0. */
function paint(series: Series, pixelsPerUnit: number, nodes: TopologyNode[]) {
  const api = { coord: ([x, y]: number[]) => [x! * pixelsPerUnit, y! * pixelsPerUnit] } as unknown as CustomSeriesRenderItemAPI;
  return series.data.map((_, dataIndex) => ({
    node: nodes[dataIndex]!,
    element: cellOf(series.renderItem({ dataIndex } as CustomSeriesRenderItemParams, api) as Parameters<typeof cellOf>[0]),
  }));
}

/** The links as drawn at one pixel a view unit: each item's path split into its lines, with the item's colour and dash. */
function paintLinks(series: Series) {
  const api = { coord: ([x, y]: number[]) => [x!, y!] } as unknown as CustomSeriesRenderItemAPI;
  return series.data.flatMap((_, dataIndex) => {
    const path = series.renderItem({ dataIndex } as CustomSeriesRenderItemParams, api) as { shape: { pathData: string }; style: { stroke: string; lineDash: string } };
    return path.shape.pathData
      .split("M")
      .filter(Boolean)
      .map((line) => ({ color: path.style.stroke, dash: path.style.lineDash, points: line.split("L").map((point) => point.split(" ").map(Number)) }));
  });
}

/** Runs the link-count series' renderItem for its one item with `coord`. */
function paintText(series: Series, coord: (point: number[]) => number[]) {
  const api = { coord } as unknown as CustomSeriesRenderItemAPI;
  return series.renderItem({ dataIndex: 0 } as CustomSeriesRenderItemParams, api) as { x: number; y: number; style: { text: string; verticalAlign: string } } | null;
}
