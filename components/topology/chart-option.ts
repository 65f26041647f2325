import type { CustomSeriesRenderItemAPI, CustomSeriesRenderItemParams, CustomSeriesRenderItemReturn } from "echarts";
import type { Box } from "@/lib/topology/layout";
import type { NodeKind, TopologyView } from "@/lib/topology/model";
import { cellPainter, palette, type CellLabel, type PainterInput } from "./cell-painter";
import { LINK_STYLES } from "./colors";
import { linkNear, linkPathsSeries, linksByKind } from "./link-paths";
import { linkLabelPlace, linkSegments, linksJoinAggregates, ROUTE_MARGIN, type Point } from "./link-routing";

const SELECTION_COLOR = "#1668dc";
export const SELECTION_STYLE = { fill: "none", stroke: SELECTION_COLOR, lineWidth: 4, shadowBlur: 12, shadowColor: SELECTION_COLOR };

const PADDING = 28;
/** The deepest zoom, relative to the fitted view. */
export const MAX_ZOOM = 40;
/**
 * Cells are drawn in chunks, one per animation frame, so that no frame blocks input for long (issue 21: no task over
 * 50 ms). ECharts creates a chunk's cells and lays their labels out in one frame (its text layout is most of it); a
 * view of one chunk or less is drawn at once. At 16,384 NPUs (profiles of the served build, load 9–10):
 * - A plain cell (a super pod, server or die of a larger view, labelled only when zoomed in): 50 a frame. Before, views
 *   under 500 cells were drawn at once: a cluster of 2 pods and 256 servers was one frame of 130 ms.
 * - A server view labels every NPU, die and node chip with several lines of text (an Atlas 950 server's 64 NPUs, 64
 *   dies and fabric at once: 110–200 ms); a frame of 24 of them took 76 ms, so 16 a frame (its neighbourhoods too).
 * - An aggregate (a rack, a super pod) is a group of rects with several lines of rich text: 32 of them were a frame of
 *   120 ms (256 at once, 100 ms on an idle machine), so 16 a frame.
 */
export const PROGRESSIVE_CHUNK = 50;
export const SERVER_CHUNK = 16;
export const AGGREGATE_CHUNK = 16;
/**
 * The links, their counts and the selection's outline are drawn on a canvas of their own above the cells', which
 * ECharts draws progressively on a layer of their own; the links' canvas is allocated before a view's first cells
 * are drawn (allocateCanvases in topology-graph.tsx): a new canvas's first drawing is 8–10 ms (its buffer allocated).
 */
export const LINKS_ZLEVEL = 1;

/** How many of a view's cells one frame draws. */
function chunkOf(view: TopologyView): number {
  if (view.nodes.some((node) => node.aggregated)) return AGGREGATE_CHUNK;
  return view.level === "server" ? SERVER_CHUNK : PROGRESSIVE_CHUNK;
}

/** Whether ECharts draws a view's cells progressively, chunk by chunk on an incremental layer (its rule: as many as a chunk). */
export function cellsDrawnProgressively(view: TopologyView): boolean {
  return view.nodes.length >= chunkOf(view);
}

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

export interface ChartInput extends PainterInput {
  size: { width: number; height: number };
  /** The operator's zoom and pan to keep; a new view starts from the whole view. */
  window?: ZoomWindow;
  /**
   * Where the pointer is on the canvas (pixels) and where view units are drawn now, read when a link's tooltip is
   * shown: a kind's links are one path, so the tooltip finds the link under the pointer (see link-paths.ts).
   */
  pointer?: () => { at: Point; toPixel: (point: Point) => number[] } | null;
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

/** Each view's links as drawn, routed once per view (the option and the first label fonts both read them). */
const routed = new WeakMap<TopologyView, ReturnType<typeof linkSegments>>();
function segmentsOf(view: TopologyView): ReturnType<typeof linkSegments> {
  let segments = routed.get(view);
  if (!segments) routed.set(view, (segments = linkSegments(view)));
  return segments;
}

/** A view's links as drawn, their counts when shown, and the room kept round the boxes for both (view units). */
function viewFrame({ view, size, labels }: ChartInput) {
  const segments = segmentsOf(view);
  // Few links between aggregates (the demo's two pods, two rows) carry their counts; many would bury the names: hover
  // shows them.
  const linkLabels =
    (view.level === "cluster" || linksJoinAggregates(view)) && segments.length <= 4
      ? segments.filter(({ link }) => link.count > 1).map(({ link, ends }) => ({ ...linkLabelPlace(ends[0], ends[1]), text: labels.linkCount(link.kind, link.count), color: LINK_STYLES[link.kind].color }))
      : [];
  // Room outside the boxes for the routes round the grid and for counts above its top row.
  const outset = Math.max(
    segments.some(({ points }) => points.length > 2) ? ROUTE_MARGIN + 4 : 0,
    linkLabels.length > 0 ? (LINK_LABEL_SIZE + 8) / fitScale(view.bounds, size) : 0,
  );
  return { segments, linkLabels, outset };
}

/** A label wholly in bold (`{b|…}` alone): drawn as plain bold text, without ECharts' rich-text layout. */
const WHOLLY_BOLD = /^\{b\|([^{}]*)\}$/;

/**
 * A cell label's text style: its lines cut short to the cell's width; the parts marked `{b|…}` in bold (rich text),
 * or the whole text in bold without rich text when it is all one such part (most labels: ids, planes, switches).
 */
export function labelStyle(label: CellLabel, fill: string) {
  const whole = WHOLLY_BOLD.exec(label.text);
  return {
    text: whole ? whole[1]! : label.text,
    fill,
    fontSize: label.fontSize,
    fontWeight: whole ? ("bold" as const) : undefined,
    lineHeight: 16,
    width: label.width,
    overflow: "truncate" as const,
    rich: !whole && label.bold ? { b: { fontWeight: "bold" as const, fill, fontSize: label.fontSize } } : undefined,
  };
}

/** ECharts' own distance between a text inside a box and the box's edge. */
const LABEL_DISTANCE = 5;

/**
 * A cell's label as a text element beside its rect in a group, not as the rect's `textContent`: ECharts marks the
 * elements a progressive chunk creates incremental, and so draws them on a layer it never clears, but it marks only an
 * element and its group's children, not an attached text. The labels went to the layer above, which, as each chunk
 * added labels, was cleared and drew every label and link again: the 8th frame of a plain row drew 235 labels for 32
 * new ones (issue 21: frames of 60–130 ms).
 */
function cellText(label: CellLabel, rect: { x: number; y: number; width: number; height: number }, fill: string) {
  const topLeft = label.position === "insideTopLeft";
  const distance = label.distance ?? LABEL_DISTANCE;
  return {
    type: "text" as const,
    silent: true,
    x: topLeft ? rect.x + distance : rect.x + rect.width / 2,
    y: topLeft ? rect.y + distance : rect.y + rect.height / 2,
    style: { ...labelStyle(label, fill), align: topLeft ? ("left" as const) : ("center" as const), verticalAlign: topLeft ? ("top" as const) : ("middle" as const) },
  };
}

/**
 * The label styles a new view's first drawing uses (at the fit), one of each font: ECharts measures a font the first
 * time it lays out text in it (a narrow glyph, then every ASCII character to cut text short; the wide glyph's probe is
 * answered without the canvas, components/primitives/text-measure.ts), 30–70 ms of a frame of labelled cells at load
 * 10–15 (the browser's font lookup), so the graph has them measured in tasks of their own before the cells
 * (topology-graph.tsx).
 */
export function firstLabelStyles(input: ChartInput): ReturnType<typeof labelStyle>[] {
  const { view, size, theme } = input;
  const painter = cellPainter(input);
  const { outset } = viewFrame(input);
  const pixelsPerUnit = fitScale({ width: view.bounds.width + 2 * outset, height: view.bounds.height + 2 * outset }, size);
  const styles = new Map<string, ReturnType<typeof labelStyle>>();
  // Cells of one kind and size take the same fonts: one of each is enough (a label's text costs a message format).
  const shapes = new Set<string>();
  for (const node of view.nodes) {
    const shape = `${node.kind}|${node.aggregated ? 1 : 0}|${node.width}|${node.height}|${node.planeKind ?? ""}|${node.switchKind ?? ""}`;
    if (shapes.has(shape)) continue;
    shapes.add(shape);
    const label = painter.look(node, pixelsPerUnit)?.label;
    if (!label) continue;
    const style = labelStyle(label, palette[theme].text);
    const key = `${style.fontSize}|${style.fontWeight ?? ""}|${style.rich ? "rich" : ""}`;
    if (!styles.has(key)) styles.set(key, style);
  }
  return [...styles.values()];
}

/**
 * The ECharts option of one view, drawn on hidden value axes whose units are the layout's (positions come laid out
 * from the API; nothing is laid out here):
 * - `cells`: every super pod, server, NPU and die as a rect (custom series, progressive), in the view's order so
 *   containers lie under what they contain; the level of detail is decided per frame from the cells' size on
 *   screen, and cells off screen are filtered out by the data zoom;
 * - `links`: the view's links, one path per kind (link-paths.ts).
 * The selected node's outline is not part of the option (see selectionOutline): selecting redraws nothing.
 * The mouse wheel zooms and dragging pans (inside data zoom on both axes, so boxes keep their shape).
 */
export function chartOption(input: ChartInput) {
  const { view, size, theme, labels } = input;
  const zoomWindow = input.window ?? FULL_WINDOW;
  const colors = palette[theme];
  const painter = cellPainter(input);
  const { segments, linkLabels, outset } = viewFrame(input);
  const extent = fittedExtent(view.bounds, size, outset);
  // Above the top row the free strip is the margin above the grid.
  for (const placed of linkLabels) if (placed.where === "above" && placed.anchor[1] <= 0) placed.room = outset;
  const renderCell = (params: CustomSeriesRenderItemParams, api: CustomSeriesRenderItemAPI): CustomSeriesRenderItemReturn => {
    const node = view.nodes[params.dataIndex];
    if (!node) return null;
    const rect = pixelRect((point) => api.coord(point), node);
    const look = painter.look(node, rect.width / node.width);
    if (!look) return null;
    const cell = {
      type: "rect" as const,
      shape: rect,
      style: { fill: look.fill, stroke: look.stroke, lineWidth: look.lineWidth, lineDash: look.dashed ? [4, 3] : undefined },
    };
    const text = look.label ? cellText(look.label, rect, colors.text) : null;
    // No hover state (`emphasisDisabled`: ECharts reads it per element, not from the series): a hovered cell of a
    // progressive series is drawn again on a hover canvas made on the first hover, 60–100 ms of that frame for an Atlas
    // 950 server's 2 hops (issue 21). The tooltip and the pointer cursor say what is under the mouse.
    if (!look.bar?.length) return text ? { type: "group", emphasisDisabled: true, children: [cell, text] } : { ...cell, emphasisDisabled: true };
    // An aggregate's health distribution: a stacked bar inside the bottom of its box.
    const barHeight = Math.max(3, Math.min(14, rect.height * 0.16));
    const inset = Math.min(6, rect.width * 0.04);
    const barWidth = rect.width - 2 * inset;
    const y = rect.y + rect.height - barHeight - inset;
    return {
      type: "group",
      emphasisDisabled: true,
      children: [
        cell,
        ...(text ? [text] : []),
        ...look.bar.map((segment) => ({
          type: "rect" as const,
          silent: true,
          shape: { x: rect.x + inset + segment.from * barWidth, y, width: (segment.to - segment.from) * barWidth, height: barHeight },
          style: { fill: segment.color },
        })),
      ],
    };
  };

  const chunk = chunkOf(view);
  const cells = {
    id: "cells",
    type: "custom" as const,
    coordinateSystem: "cartesian2d",
    encode: { x: [0, 2], y: [1, 3] },
    data: view.nodes.map(boxCorners),
    renderItem: renderCell,
    progressive: chunk,
    progressiveThreshold: chunk,
    cursor: "pointer",
    clip: true,
    z: 2,
  };
  const linkGroups = linksByKind(segments);
  const links = linkPathsSeries(linkGroups, LINKS_ZLEVEL);
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
    zlevel: LINKS_ZLEVEL,
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
          const pointer = input.pointer?.();
          const link = pointer ? linkNear(linkGroups[i] ?? [], pointer.at, pointer.toPixel)?.link : undefined;
          return link ? labels.linkTooltip(link.kind, link.count, link.source, link.target) : "";
        }
        const node = params.seriesId === "cells" ? view.nodes[i] : undefined;
        return node ? labels.tooltip(node, painter.rankOf(node)) : "";
      },
    },
    series: [cells, links, linkLabelSeries] as [typeof cells, typeof links, typeof linkLabelSeries],
  };
}
