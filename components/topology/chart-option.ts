import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { Box } from "@/lib/topology/layout";
import type { Health, NodeKind, TopologyNode, TopologyView } from "@/lib/topology/model";

/** The console's colours that mean something (spec/ui.md): the same in the graph, the legend and the panels. */
export const HEALTH_COLORS: Record<"light" | "dark", Record<Health, string>> = {
  light: { healthy: "#52c41a", degraded: "#faad14", faulty: "#ff4d4f", unknown: "#bfbfbf" },
  dark: { healthy: "#49aa19", degraded: "#d89614", faulty: "#dc4446", unknown: "#5a5a5a" },
};
export const LINK_STYLES: Record<LinkKind, { color: string; type: "solid" | "dashed"; width: number }> = {
  "backup-rail": { color: "#c41d7f", type: "dashed", width: 2.5 },
  hccs: { color: "#08979c", type: "solid", width: 2 },
  roce: { color: "#1d39c4", type: "solid", width: 3 },
};
export const SELECTION_COLOR = "#1668dc";

const PADDING = 28;

/** A node's key in the chart: ids are unique per kind, so the kind is part of the key. */
export function nodeKey(node: { kind: NodeKind; id: string }): string {
  return `${node.kind}:${node.id}`;
}

export function parseNodeKey(key: string): { kind: NodeKind; id: string } | null {
  const match = /^(superpod|server|npu|die):(.+)$/.exec(key);
  return match ? { kind: match[1] as NodeKind, id: match[2]! } : null;
}

/** Pixels per view unit at zoom 1 when `bounds` is fitted into a canvas of `size`, aspect kept. */
export function fitScale(bounds: { width: number; height: number }, size: { width: number; height: number }): number {
  const w = Math.max(1, size.width - 2 * PADDING);
  const h = Math.max(1, size.height - 2 * PADDING);
  return Math.min(w / Math.max(1, bounds.width), h / Math.max(1, bounds.height));
}

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

function leftSides(a: Box, b: Box): [[number, number], [number, number]] {
  return [
    [a.x, a.y + a.height / 2],
    [b.x, b.y + b.height / 2],
  ];
}

/** The kind of node a view's links join: dies in a server, servers in a super pod, super pods (or servers) above. */
export function linkEndpointKind(view: Pick<TopologyView, "level" | "nodes">): NodeKind {
  if (view.level === "server") return "die";
  if (view.level === "superpod") return "server";
  return view.nodes.some((node) => node.kind === "superpod") ? "superpod" : "server";
}

/**
 * Level of detail, from the size in pixels of a view's smallest cells: zoomed out, servers fold into their super
 * pod and dies into their server; labels appear once there is room for them.
 */
export interface Detail {
  /** A super pod's label: its name and counts, its name, or only its id when the box is small. */
  podLabels: "full" | "name" | "id";
  showServerCells: boolean;
  showDies: boolean;
  serverLabels: "none" | "id" | "full";
  dieLabels: "none" | "short" | "full";
}

export function levelOfDetail(view: Pick<TopologyView, "level" | "nodes">, pixelsPerUnit: number): Detail {
  const widthOf = (kind: NodeKind) => {
    const node = view.nodes.find((n) => n.kind === kind);
    return node ? node.width * pixelsPerUnit : 0;
  };
  const server = widthOf("server");
  const die = widthOf("die");
  const pod = widthOf("superpod");
  if (view.level === "cluster") {
    const hasPods = view.nodes.some((n) => n.kind === "superpod");
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

export interface ChartInput {
  view: TopologyView;
  size: { width: number; height: number };
  zoom: number;
  theme: "light" | "dark";
  selected: string | null;
  /** Ranks from the chosen rank table, by die id; undefined means the inventory's own order. */
  ranks: Map<string, number> | undefined;
  labels: ChartLabels;
}

// Containers are translucent: links are drawn beneath the nodes and must show through them (a die's backup rail
// runs inside its NPU's box).
const palette = {
  light: { box: "rgba(0,0,0,0.025)", innerBox: "rgba(0,0,0,0.045)", border: "#bfbfbf", text: "#262626", subtle: "#595959" },
  dark: { box: "rgba(255,255,255,0.03)", innerBox: "rgba(255,255,255,0.06)", border: "#434343", text: "#e8e8e8", subtle: "#a6a6a6" },
};

/** The ECharts option of one view: a graph series with fixed positions (no force layout), rects sized in pixels. */
export function chartOption(input: ChartInput) {
  const { view, size, zoom, theme, selected, ranks, labels } = input;
  const fit = fitScale(view.bounds, size);
  const detail = levelOfDetail(view, fit * zoom);
  const colors = palette[theme];
  const health = HEALTH_COLORS[theme];
  const rankOf = (node: TopologyNode) => (node.kind === "die" ? (ranks ? ranks.get(node.id) : node.rank) : undefined);

  const isLeaf = (node: TopologyNode) =>
    node.kind === "die" || (node.kind === "server" && view.level === "cluster") || (node.kind === "superpod" && !detail.showServerCells);
  const visible = (node: TopologyNode) => {
    if (node.kind === "server" && view.level === "cluster") return detail.showServerCells;
    if (node.kind === "npu" || node.kind === "die") return view.level === "server" || detail.showDies;
    return true;
  };

  const labelOf = (node: TopologyNode): { show: boolean; text: string; position: string } => {
    switch (node.kind) {
      case "superpod":
        return {
          show: true,
          text:
            detail.podLabels === "full"
              ? `{b|${labels.superPod(node.id)}}  ${labels.counts(node)}`
              : `{b|${detail.podLabels === "name" ? labels.superPod(node.id) : node.id}}`,
          position: "insideTopLeft",
        };
      case "server":
        if (view.level === "cluster" && view.nodes[0]?.kind === "superpod") {
          return { show: detail.serverLabels !== "none", text: node.id, position: "inside" };
        }
        if (view.level === "server") {
          return { show: true, text: `{b|${node.id}}  ${node.hostIp ?? ""}  ${node.model ?? ""}`, position: "insideTopLeft" };
        }
        return {
          show: detail.serverLabels !== "none",
          text: detail.serverLabels === "full" ? `{b|${node.id}}  ${node.hostIp ?? ""}` : `{b|${node.id}}`,
          position: view.level === "cluster" ? "inside" : "insideTopLeft",
        };
      case "npu":
        return { show: view.level === "server", text: labels.npu(node.npuIndex ?? 0), position: "insideTopLeft" };
      case "die": {
        const rank = rankOf(node);
        if (view.level === "server" || detail.dieLabels === "full") {
          // As much as the die's width on screen holds: name, address and port, rank.
          const px = node.width * fit * zoom;
          const address = px >= 150 ? `${node.deviceIp ?? "—"}${node.devicePort ? `:${node.devicePort}` : ""}` : px >= 105 ? (node.deviceIp ?? "—") : null;
          const lines = [`{b|${px >= 150 ? labels.die(node) : labels.dieShort(node)}}`];
          if (address !== null) lines.push(address);
          if (rank !== undefined) lines.push(labels.rank(rank));
          return { show: true, text: lines.join("\n"), position: "inside" };
        }
        return { show: detail.dieLabels === "short", text: String(node.deviceId ?? ""), position: "inside" };
      }
    }
  };

  const data: Record<string, unknown>[] = [
    // Two invisible corners pin the view's bounding box, so the fit (and so every rect's size) is known here.
    { id: "corner:0", name: "corner:0", x: 0, y: 0, symbolSize: 0, tooltip: { show: false }, label: { show: false } },
    { id: "corner:1", name: "corner:1", x: view.bounds.width, y: view.bounds.height, symbolSize: 0, tooltip: { show: false }, label: { show: false } },
  ];
  const hiddenLabel = { show: false };
  const richBold = {
    12: { b: { fontWeight: "bold", color: colors.text, fontSize: 12 } },
    13: { b: { fontWeight: "bold", color: colors.text, fontSize: 13 } },
  };
  const byKey = new Map<string, TopologyNode>();
  for (const node of view.nodes) {
    const key = nodeKey(node);
    byKey.set(key, node);
    if (!visible(node)) continue;
    const leaf = isLeaf(node);
    const isSelected = key === selected;
    const label = labelOf(node);
    const fill = leaf ? health[node.health] : node.kind === "npu" ? colors.innerBox : colors.box;
    data.push({
      id: key,
      name: key,
      x: node.x + node.width / 2,
      y: node.y + node.height / 2,
      symbol: "rect",
      symbolSize: [node.width * fit, node.height * fit],
      itemStyle: {
        color: fill,
        borderColor: isSelected ? SELECTION_COLOR : leaf ? colors.subtle : node.kind === "superpod" || node.kind === "server" ? health[node.health] === health.unknown ? colors.border : health[node.health] : colors.border,
        borderWidth: isSelected ? 4 : leaf ? 0.5 : 1,
        borderType: node.kind === "superpod" ? "dashed" : "solid",
        shadowBlur: isSelected ? 12 : 0,
        shadowColor: SELECTION_COLOR,
      },
      // Hidden labels carry nothing: text layout (rich text, truncation) is the costly part of drawing a view.
      label: label.show
        ? {
            show: true,
            formatter: label.text,
            position: label.position,
            color: colors.text,
            fontSize: node.kind === "die" && view.level !== "server" ? 10 : 12,
            lineHeight: 16,
            overflow: "truncate",
            width: Math.max(0, node.width * fit * zoom - 8),
            rich: label.text.includes("{b|") ? richBold[node.kind === "superpod" ? 13 : 12] : undefined,
          }
        : hiddenLabel,
      cursor: node.kind === "npu" ? "default" : "pointer",
      z: isSelected ? 10 : undefined,
    });
  }

  const endpointKind = linkEndpointKind(view);
  const edges: Record<string, unknown>[] = [];
  view.links.forEach((link, i) => {
    const a = byKey.get(`${endpointKind}:${link.source}`);
    const b = byKey.get(`${endpointKind}:${link.target}`);
    if (!a || !b) return;
    const adjacent = touching(a, b);
    // Neighbours are joined straight across the gap between them; far ones (a ring closing on itself) leave from
    // the left sides of their boxes and bow out of the grid, so they never run underneath other boxes.
    const [pa, pb] = adjacent ? clipBetween(a, b) : leftSides(a, b);
    const ids = [`anchor:${i}:a`, `anchor:${i}:b`];
    for (const [j, p] of [pa, pb].entries()) {
      data.push({ id: ids[j], name: ids[j], x: p[0], y: p[1], symbolSize: 0, tooltip: { show: false }, label: { show: false } });
    }
    const style = LINK_STYLES[link.kind];
    edges.push({
      source: ids[0],
      target: ids[1],
      lineStyle: { color: style.color, type: style.type, width: style.width, opacity: 0.9, curveness: adjacent ? 0 : pa[1] < pb[1] ? -0.1 : 0.1 },
      label: {
        // Few links (the demo's two pods) carry their counts; many would bury the pods' names: hover shows them.
        show: view.level === "cluster" && link.count > 1 && view.links.length <= 4,
        formatter: labels.linkCount(link.kind, link.count),
        color: style.color,
        fontSize: 11,
      },
      emphasis: { label: { show: true }, lineStyle: { width: style.width + 2 } },
      tooltip: { formatter: labels.linkTooltip(link.kind, link.count, link.source, link.target) },
    });
  });

  return {
    animation: false,
    tooltip: {
      trigger: "item",
      confine: true,
      formatter: (params: { dataType?: string; data?: { id?: string } }) => {
        if (params.dataType !== "node" || !params.data?.id) return "";
        const node = byKey.get(params.data.id);
        return node ? labels.tooltip(node, rankOf(node)) : "";
      },
    },
    series: [
      {
        type: "graph",
        layout: "none",
        roam: true,
        zoom,
        scaleLimit: { min: 0.5, max: 40 },
        nodeScaleRatio: 1,
        preserveAspect: "contain",
        left: PADDING,
        right: PADDING,
        top: PADDING,
        bottom: PADDING,
        draggable: false,
        emphasis: { disabled: false, focus: "none", scale: false },
        data,
        edges,
      },
    ],
  };
}
