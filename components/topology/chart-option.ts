import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from "echarts";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import { SUPER_POD_VIEW_GEOMETRY, type Box } from "@/lib/topology/layout";
import type { Health, NodeKind, TopologyNode, TopologyView } from "@/lib/topology/model";
import { linkLabelPlace, linkSegments, ROUTE_MARGIN } from "./link-routing";

/** The console's colours that mean something (spec/ui.md): the same in the graph, the legend and the panels. */
export const HEALTH_COLORS: Record<"light" | "dark", Record<Health, string>> = {
  light: { healthy: "#52c41a", degraded: "#faad14", faulty: "#ff4d4f", unknown: "#bfbfbf" },
  dark: { healthy: "#49aa19", degraded: "#d89614", faulty: "#dc4446", unknown: "#5a5a5a" },
};
export const LINK_STYLES: Record<LinkKind, { color: string; type: "solid" | "dashed"; width: number }> = {
  "backup-rail": { color: "#c41d7f", type: "dashed", width: 2.5 },
  hccs: { color: "#08979c", type: "solid", width: 2 },
  roce: { color: "#1d39c4", type: "solid", width: 3 },
  "net-layer-0": { color: "#389e0d", type: "solid", width: 2 },
  "net-layer-1": { color: "#d46b08", type: "solid", width: 3 },
};
const SELECTION_COLOR = "#1668dc";
export const SELECTION_STYLE = { fill: "none", stroke: SELECTION_COLOR, lineWidth: 4, shadowBlur: 12, shadowColor: SELECTION_COLOR };

const PADDING = 28;
/** The deepest zoom, relative to the fitted view. */
export const MAX_ZOOM = 40;
/**
 * Views with more cells than the threshold are drawn in chunks, one per animation frame, so drawing never blocks
 * input for long; smaller views (a server) are drawn at once.
 */
export const PROGRESSIVE_CHUNK = 100;
export const PROGRESSIVE_THRESHOLD = 500;

/** A node's key in the chart: ids are unique per kind, so the kind is part of the key. */
export function nodeKey(node: { kind: NodeKind; id: string }): string {
  return `${node.kind}:${node.id}`;
}

/** Pixels per view unit at zoom 1 when `bounds` is fitted into a canvas of `size`, aspect kept. */
export function fitScale(bounds: { width: number; height: number }, size: { width: number; height: number }): number {
  const w = Math.max(1, size.width - 2 * PADDING);
  const h = Math.max(1, size.height - 2 * PADDING);
  return Math.min(w / Math.max(1, bounds.width), h / Math.max(1, bounds.height));
}

/**
 * The axes' ranges (view units) that show `bounds` whole, with `outset` units more on every side, centred in a
 * canvas of `size`, with the same pixels per unit on both axes, so boxes keep their shape.
 */
export function fittedExtent(bounds: { width: number; height: number }, size: { width: number; height: number }, outset = 0) {
  const scale = fitScale({ width: bounds.width + 2 * outset, height: bounds.height + 2 * outset }, size);
  const width = Math.max(1, size.width - 2 * PADDING) / scale;
  const height = Math.max(1, size.height - 2 * PADDING) / scale;
  return {
    x: [(bounds.width - width) / 2, (bounds.width + width) / 2] as [number, number],
    y: [(bounds.height - height) / 2, (bounds.height + height) / 2] as [number, number],
  };
}

/**
 * The part of the fitted view on screen, in percent of each axis (ECharts' inside data zoom). Both axes always
 * span the same percentage, so the zoom is `100 / span`.
 */
export interface ZoomWindow {
  x: [number, number];
  y: [number, number];
}
export const FULL_WINDOW: ZoomWindow = { x: [0, 100], y: [0, 100] };

/**
 * Level of detail, from the size in pixels of a view's smallest cells: zoomed out, servers fold into their super
 * pod and dies into their server; labels appear once there is room for them.
 */
interface Detail {
  /** A super pod's label: its name and counts, its name, or only its id when the box is small. */
  podLabels: "full" | "name" | "id";
  showServerCells: boolean;
  showDies: boolean;
  serverLabels: "none" | "id" | "full";
  dieLabels: "none" | "short" | "full";
}

/** What the level of detail depends on, read once per view: the width of one cell of each kind. */
function detailBasis(view: Pick<TopologyView, "level" | "nodes">) {
  const widths: Partial<Record<NodeKind, number>> = {};
  for (const node of view.nodes) widths[node.kind] ??= node.width;
  return { level: view.level, widths };
}

function detailAt({ level, widths }: ReturnType<typeof detailBasis>, pixelsPerUnit: number): Detail {
  const server = (widths.server ?? 0) * pixelsPerUnit;
  const die = (widths.die ?? 0) * pixelsPerUnit;
  const pod = (widths.superpod ?? 0) * pixelsPerUnit;
  if (level === "cluster") {
    const hasPods = widths.superpod !== undefined;
    return {
      podLabels: pod >= 300 ? "full" : pod >= 130 ? "name" : "id",
      showServerCells: !hasPods || server >= 6,
      showDies: false,
      serverLabels: !hasPods ? (server >= 120 ? "full" : server >= 50 ? "id" : "none") : server >= 70 ? "id" : "none",
      dieLabels: "none",
    };
  }
  return {
    podLabels: "full",
    showServerCells: true,
    showDies: die >= 3,
    serverLabels: server >= 150 ? "full" : server >= 60 ? "id" : "none",
    dieLabels: die >= 95 ? "full" : die >= 20 ? "short" : "none",
  };
}

export interface ChartLabels {
  superPod: (id: string) => string;
  /** A bus plane's bar: its name, switches and the servers it reaches. */
  plane: (node: TopologyNode) => string;
  npu: (index: number) => string;
  die: (node: TopologyNode) => string;
  /** A short name for narrow dies: "dev 5". */
  dieShort: (node: TopologyNode) => string;
  counts: (node: TopologyNode) => string;
  rank: (rank: number) => string;
  linkCount: (kind: LinkKind, count: number) => string;
  tooltip: (node: TopologyNode, rank: number | undefined) => string;
  linkTooltip: (kind: LinkKind, count: number, source: string, target: string) => string;
}

/** A job drawn over the topology: its dies (the rest dimmed), some marked (diagnosis suspects red, timed-out amber). */
export interface ChartOverlay {
  /** Every die of the job, by die id, with its mark. */
  dies: ReadonlyMap<string, OverlayMark>;
}
export type OverlayMark = "member" | "timeout" | "suspect";
export const OVERLAY_COLORS: Record<Exclude<OverlayMark, "member">, string> = { suspect: "#cf1322", timeout: "#d48806" };
const OVERLAY_WEIGHT: Record<OverlayMark, number> = { member: 0, timeout: 1, suspect: 2 };

/** A die id's server: `<server_id>/d<device_id>`. */
const serverOfDie = (dieId: string) => dieId.slice(0, dieId.lastIndexOf("/d"));

export interface ChartInput {
  view: TopologyView;
  size: { width: number; height: number };
  /** The operator's zoom and pan to keep; a new view starts from the whole view. */
  window?: ZoomWindow;
  theme: "light" | "dark";
  /** Ranks from the chosen rank table, by die id; undefined means the inventory's own order. */
  ranks: Map<string, number> | undefined;
  labels: ChartLabels;
  overlay?: ChartOverlay | undefined;
}

// Containers are translucent: a die's backup rail runs inside its NPU's box and must show through it.
const palette = {
  light: { box: "rgba(0,0,0,0.025)", innerBox: "rgba(0,0,0,0.045)", border: "#bfbfbf", text: "#262626", subtle: "#595959", dimmed: "rgba(0,0,0,0.06)" },
  dark: { box: "rgba(255,255,255,0.03)", innerBox: "rgba(255,255,255,0.06)", border: "#434343", text: "#e8e8e8", subtle: "#a6a6a6", dimmed: "rgba(255,255,255,0.06)" },
};

interface CellLabel {
  text: string;
  position: "inside" | "insideTopLeft";
  fontSize: number;
  /** Pixels the text may take before it is cut short. */
  width: number;
  bold: boolean;
  /** Pixels between the text and the box's edge, when not ECharts' default. */
  distance?: number;
}

/** How one node is drawn at one scale; null when the level of detail folds it into its parent. */
interface CellLook {
  fill: string;
  stroke: string;
  lineWidth: number;
  dashed: boolean;
  label: CellLabel | null;
}

/**
 * The painter of a view's cells: for a node and the current pixels per view unit, its colours and label. Only what
 * is on screen is painted, so text layout (the costly part) stays proportional to the canvas, not to the cluster.
 */
function cellPainter(input: Pick<ChartInput, "view" | "theme" | "ranks" | "labels" | "overlay">) {
  const { view, theme, ranks, labels, overlay } = input;
  // A server's mark is its dies' strongest: a server drawn whole (zoomed out) still shows the suspect inside.
  const serverMarks = new Map<string, OverlayMark>();
  for (const [dieId, mark] of overlay?.dies ?? []) {
    const server = serverOfDie(dieId);
    const current = serverMarks.get(server);
    if (current === undefined || OVERLAY_WEIGHT[mark] > OVERLAY_WEIGHT[current]) serverMarks.set(server, mark);
  }
  const markOf = (node: TopologyNode): OverlayMark | undefined | null => {
    if (!overlay) return null;
    if (node.kind === "die") return overlay.dies.get(node.id);
    if (node.kind === "server") return serverMarks.get(node.id);
    return null;
  };
  const colors = palette[theme];
  const health = HEALTH_COLORS[theme];
  const basis = detailBasis(view);
  const podsWithServers = view.level === "cluster" && basis.widths.superpod !== undefined;
  let scale = NaN;
  let detail = detailAt(basis, 1);
  const rankOf = (node: TopologyNode) => (node.kind === "die" ? (ranks ? ranks.get(node.id) : node.rank) : undefined);

  const visible = (node: TopologyNode) => {
    if (node.kind === "server" && view.level === "cluster") return detail.showServerCells;
    if (node.kind === "npu" || node.kind === "die") return view.level === "server" || detail.showDies;
    return true;
  };
  const isLeaf = (node: TopologyNode) =>
    node.kind === "die" ||
    node.kind === "plane" || (node.kind === "server" && view.level === "cluster") || (node.kind === "superpod" && !detail.showServerCells);

  const labelOf = (node: TopologyNode, pixelsPerUnit: number): (Omit<CellLabel, "width" | "fontSize"> & { fontSize?: number }) | null => {
    const pixels = node.width * pixelsPerUnit;
    switch (node.kind) {
      case "superpod":
        return detail.podLabels === "full"
          ? { text: `{b|${labels.superPod(node.id)}}  ${labels.counts(node)}`, position: "insideTopLeft", bold: true }
          : { text: `{b|${detail.podLabels === "name" ? labels.superPod(node.id) : node.id}}`, position: "insideTopLeft", bold: true };
      case "server":
        if (podsWithServers) return detail.serverLabels === "none" ? null : { text: node.id, position: "inside", bold: false };
        if (view.level === "server") return { text: `{b|${node.id}}  ${node.hostIp ?? ""}  ${node.model ?? ""}`, position: "insideTopLeft", bold: true };
        if (detail.serverLabels === "none") return null;
        if (view.level === "superpod") {
          // The name sits in the server's header, above its NPUs: a smaller font when the header is short, none
          // when it has no room, never over the dies.
          const header = SUPER_POD_VIEW_GEOMETRY.serverHeader * pixelsPerUnit;
          if (header < 8) return null;
          const fontSize = Math.min(12, Math.max(9, Math.floor(header * 0.6)));
          const text = detail.serverLabels === "full" ? `{b|${node.id}}  ${node.hostIp ?? ""}` : `{b|${node.id}}`;
          return { text, position: "insideTopLeft", bold: true, fontSize, distance: Math.max(1, (header - fontSize) / 2) };
        }
        return {
          text: detail.serverLabels === "full" ? `{b|${node.id}}  ${node.hostIp ?? ""}` : `{b|${node.id}}`,
          position: "inside",
          bold: true,
        };
      case "plane": {
        // Inside the bar: a font that fits its height on screen, none when it is too thin to hold one.
        const height = node.height * pixelsPerUnit;
        if (height < 9) return null;
        return { text: `{b|${labels.plane(node)}}`, position: "inside", bold: true, fontSize: Math.min(12, Math.floor(height * 0.7)) };
      }
      case "npu":
        return view.level === "server" ? { text: labels.npu(node.npuIndex ?? 0), position: "insideTopLeft", bold: false } : null;
      case "die": {
        if (view.level === "server" || detail.dieLabels === "full") {
          // As much as the die's width on screen holds: name, address and port, rank.
          const rank = rankOf(node);
          const address = pixels >= 150 ? `${node.deviceIp ?? "—"}${node.devicePort ? `:${node.devicePort}` : ""}` : pixels >= 105 ? (node.deviceIp ?? "—") : null;
          const lines = [`{b|${pixels >= 150 ? labels.die(node) : labels.dieShort(node)}}`];
          if (address !== null) lines.push(address);
          if (rank !== undefined) lines.push(labels.rank(rank));
          return { text: lines.join("\n"), position: "inside", bold: true };
        }
        return detail.dieLabels === "short" ? { text: String(node.deviceId ?? ""), position: "inside", bold: false } : null;
      }
    }
  };

  return {
    rankOf,
    look(node: TopologyNode, pixelsPerUnit: number): CellLook | null {
      if (!(Math.abs(pixelsPerUnit - scale) <= 1e-6 * pixelsPerUnit)) {
        scale = pixelsPerUnit;
        detail = detailAt(basis, pixelsPerUnit);
      }
      if (!visible(node)) return null;
      const leaf = isLeaf(node);
      const known = health[node.health] !== health.unknown;
      const label = labelOf(node, pixelsPerUnit);
      // With a job overlay: cells outside the job are dimmed, marked ones outlined (null: no overlay, or not a die or server).
      const mark = markOf(node);
      const outside = mark === undefined;
      const outlined = mark === "suspect" || mark === "timeout" ? OVERLAY_COLORS[mark] : null;
      return {
        fill: leaf ? (outside ? colors.dimmed : health[node.health]) : node.kind === "npu" ? colors.innerBox : colors.box,
        stroke: outlined ?? (leaf ? colors.subtle : (node.kind === "superpod" || node.kind === "server") && known ? health[node.health] : colors.border),
        lineWidth: outlined ? (mark === "suspect" ? 3 : 2) : leaf ? 0.5 : 1,
        dashed: node.kind === "superpod",
        label: label && {
          ...label,
          fontSize: label.fontSize ?? (node.kind === "die" && view.level !== "server" ? 10 : node.kind === "superpod" ? 13 : 12),
          width: Math.max(0, node.width * pixelsPerUnit - 8),
        },
      };
    },
  };
}

const LINK_LABEL_SIZE = 11;

const boxCorners = (node: Box) => [node.x, node.y, node.x + node.width, node.y + node.height];

/** A box of view units as a rect in pixels (the y axis runs downwards, like the layout). */
function pixelRect(toPixel: (point: [number, number]) => number[], box: Box) {
  const [x0, y0] = toPixel([box.x, box.y]) as [number, number];
  const [x1, y1] = toPixel([box.x + box.width, box.y + box.height]) as [number, number];
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Where the selected node's outline goes on the canvas, in pixels, or null when nothing in the view is selected.
 * The outline is drawn over the chart rather than in it, so a click only moves it: the cells are not redrawn.
 */
export function selectionOutline(view: TopologyView, selected: string | null, toPixel: (point: [number, number]) => number[]) {
  const node = selected === null ? undefined : view.nodes.find((n) => nodeKey(n) === selected);
  return node ? pixelRect(toPixel, node) : null;
}

/**
 * The ECharts option of one view, drawn on hidden value axes whose units are the layout's (positions come laid out
 * from the API; nothing is laid out here):
 * - `cells`: every super pod, server, NPU and die as a rect (custom series, progressive), in the view's order so
 *   containers lie under what they contain; the level of detail is decided per frame from the cells' size on
 *   screen, and cells off screen are filtered out by the data zoom;
 * - `links`: the view's links (lines series).
 * The selected node's outline is not part of the option (see selectionOutline): selecting redraws nothing.
 * The mouse wheel zooms and dragging pans (inside data zoom on both axes, so boxes keep their shape).
 */
export function chartOption(input: ChartInput) {
  const { view, size, theme, labels } = input;
  const zoomWindow = input.window ?? FULL_WINDOW;
  const colors = palette[theme];
  const painter = cellPainter(input);
  const segments = linkSegments(view);
  // Few links (the demo's two pods) carry their counts; many would bury the pods' names: hover shows them.
  const linkLabels =
    view.level === "cluster" && segments.length <= 4
      ? segments.filter(({ link }) => link.count > 1).map(({ link, ends }) => ({ ...linkLabelPlace(ends[0], ends[1]), text: labels.linkCount(link.kind, link.count), color: LINK_STYLES[link.kind].color }))
      : [];
  // Room outside the boxes for the routes round the grid and for counts above its top row.
  const outset = Math.max(
    segments.some(({ points }) => points.length > 2) ? ROUTE_MARGIN + 4 : 0,
    linkLabels.length > 0 ? (LINK_LABEL_SIZE + 8) / fitScale(view.bounds, size) : 0,
  );
  const extent = fittedExtent(view.bounds, size, outset);
  // Above the top row the free strip is the margin above the grid.
  for (const placed of linkLabels) if (placed.where === "above" && placed.anchor[1] <= 0) placed.room = outset;
  const richBold = (fontSize: number) => ({ b: { fontWeight: "bold" as const, fill: colors.text, fontSize } });

  const renderCell = (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
    const node = view.nodes[params.dataIndex];
    if (!node) return null;
    const rect = pixelRect((point) => api.coord(point), node);
    const look = painter.look(node, rect.width / node.width);
    if (!look) return null;
    const label = look.label;
    return {
      type: "rect",
      shape: rect,
      style: { fill: look.fill, stroke: look.stroke, lineWidth: look.lineWidth, lineDash: look.dashed ? [4, 3] : undefined },
      textContent: label
        ? {
            type: "text",
            silent: true,
            style: {
              text: label.text,
              fill: colors.text,
              fontSize: label.fontSize,
              lineHeight: 16,
              width: label.width,
              overflow: "truncate",
              rich: label.bold ? richBold(label.fontSize) : undefined,
            },
          }
        : undefined,
      textConfig: label ? { position: label.position, inside: true, distance: label.distance } : undefined,
    };
  };

  const cells = {
    id: "cells",
    type: "custom" as const,
    coordinateSystem: "cartesian2d",
    encode: { x: [0, 2], y: [1, 3] },
    data: view.nodes.map(boxCorners),
    renderItem: renderCell,
    progressive: PROGRESSIVE_CHUNK,
    progressiveThreshold: PROGRESSIVE_THRESHOLD,
    cursor: "pointer",
    clip: true,
    z: 2,
  };
  const links = {
    id: "links",
    type: "lines" as const,
    coordinateSystem: "cartesian2d",
    polyline: true,
    clip: true,
    z: 3,
    data: segments.map(({ link, points }) => {
      const style = LINK_STYLES[link.kind];
      return {
        coords: points,
        lineStyle: { color: style.color, type: style.type, width: style.width, opacity: 0.9 },
        emphasis: { lineStyle: { width: style.width + 2 } },
      };
    }),
  };
  const renderLinkLabel = (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
    const placed = linkLabels[params.dataIndex];
    if (!placed) return null;
    const [x, y] = api.coord(placed.anchor) as [number, number];
    const pixelsPerUnit = Math.abs((api.coord([placed.anchor[0], placed.anchor[1] + 1]) as number[])[1]! - y);
    // Only where the free strip holds the text: zoomed far out it would reach the boxes.
    if (placed.room * pixelsPerUnit < LINK_LABEL_SIZE + 4) return null;
    const above = placed.where === "above";
    return {
      type: "text",
      silent: true,
      x: above ? x : x + 6,
      y: above ? y - 3 : y,
      style: { text: placed.text, fill: placed.color, fontSize: LINK_LABEL_SIZE, align: above ? "center" : "left", verticalAlign: above ? "bottom" : "middle" },
    };
  };
  const linkLabelSeries = {
    id: "link-labels",
    type: "custom" as const,
    coordinateSystem: "cartesian2d",
    encode: { x: 0, y: 1 },
    data: linkLabels.map((placed) => placed.anchor),
    renderItem: renderLinkLabel,
    silent: true,
    clip: true,
    z: 4,
  };
  const zoomLimits = { minSpan: 100 / MAX_ZOOM, filterMode: "weakFilter" as const, zoomOnMouseWheel: true, moveOnMouseMove: true };
  return {
    animation: false,
    grid: { left: PADDING, right: PADDING, top: PADDING, bottom: PADDING, outerBoundsMode: "none" as const },
    xAxis: { type: "value" as const, min: extent.x[0], max: extent.x[1], show: false },
    yAxis: { type: "value" as const, min: extent.y[0], max: extent.y[1], inverse: true, show: false },
    dataZoom: [
      { id: "zoom-x", type: "inside" as const, xAxisIndex: 0, start: zoomWindow.x[0], end: zoomWindow.x[1], ...zoomLimits },
      { id: "zoom-y", type: "inside" as const, yAxisIndex: 0, start: zoomWindow.y[0], end: zoomWindow.y[1], ...zoomLimits },
    ],
    tooltip: {
      trigger: "item" as const,
      confine: true,
      formatter: (params: { seriesId?: string; dataIndex?: number }) => {
        const i = params.dataIndex ?? -1;
        if (params.seriesId === "links") {
          const link = segments[i]?.link;
          return link ? labels.linkTooltip(link.kind, link.count, link.source, link.target) : "";
        }
        const node = params.seriesId === "cells" ? view.nodes[i] : undefined;
        return node ? labels.tooltip(node, painter.rankOf(node)) : "";
      },
    },
    series: [cells, links, linkLabelSeries] as [typeof cells, typeof links, typeof linkLabelSeries],
  };
}
