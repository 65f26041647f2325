import type { LinkKind } from "@/lib/inventory/vocabulary";
import { SUPER_POD_VIEW_GEOMETRY } from "@/lib/topology/layout";
import type { Health, HealthCounts, NodeKind, TopologyNode, TopologyView } from "@/lib/topology/model";
import { HEALTH_COLORS, OVERLAY_COLORS } from "./colors";

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
  /** A bus plane's bar: its name, switches and the servers it reaches; or the parameter plane (or a tier of it). */
  plane: (node: TopologyNode) => string;
  /** A server's node chip: its index and the plane it uplinks to. */
  switch: (node: TopologyNode) => string;
  npu: (index: number) => string;
  die: (node: TopologyNode) => string;
  /** A short name for narrow dies: "dev 5". */
  dieShort: (node: TopologyNode) => string;
  counts: (node: TopologyNode) => string;
  /** A job's dies in an aggregate, and how many of them are faulty or degraded ("Job: 12 dies · 1 faulty"). */
  jobCounts: (job: NonNullable<TopologyNode["job"]>) => string;
  /** A distribution in words, worst first, healthy dies last ("1 faulty · 131,071 healthy"): colour is never the only signal. */
  healthCounts: (counts: HealthCounts) => string;
  rank: (rank: number) => string;
  linkCount: (kind: LinkKind, count: number) => string;
  tooltip: (node: TopologyNode, rank: number | undefined) => string;
  linkTooltip: (kind: LinkKind, count: number, source: string, target: string) => string;
}

/** A job drawn over the topology: its dies (the rest dimmed), some marked (diagnosis suspects red, timed-out amber). */
export interface ChartOverlay {
  /** Every die of the job, by die id, with its mark. */
  dies: ReadonlyMap<string, OverlayMark>;
  /**
   * Fabric nodes (switches, planes) by id, with their mark: with it, the fabric nodes it leaves out are dimmed too
   * (a die's plane ports, a switch's blast radius); without it they are drawn as usual.
   */
  fabric?: ReadonlyMap<string, OverlayMark>;
}
export type OverlayMark = "member" | keyof typeof OVERLAY_COLORS;
const OVERLAY_WEIGHT: Record<OverlayMark, number> = { member: 0, timeout: 1, suspect: 2 };

/** A die id's server: `<server_id>/d<device_id>`. */
const serverOfDie = (dieId: string) => dieId.slice(0, dieId.lastIndexOf("/d"));

/** What the cells of a view are painted from. */
export interface PainterInput {
  view: TopologyView;
  theme: "light" | "dark";
  /** Ranks from the chosen rank table, by die id; undefined means the inventory's own order. */
  ranks: Map<string, number> | undefined;
  labels: ChartLabels;
  overlay?: ChartOverlay | undefined;
}

// Containers are translucent: a die's backup rail runs inside its NPU's box and must show through it.
export const palette = {
  light: { box: "rgba(0,0,0,0.025)", innerBox: "rgba(0,0,0,0.045)", border: "#bfbfbf", text: "#262626", subtle: "#595959", dimmed: "rgba(0,0,0,0.06)" },
  dark: { box: "rgba(255,255,255,0.03)", innerBox: "rgba(255,255,255,0.06)", border: "#434343", text: "#e8e8e8", subtle: "#a6a6a6", dimmed: "rgba(255,255,255,0.06)" },
};

export interface CellLabel {
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
  /** An aggregate's health distribution, drawn as a stacked bar along its bottom edge. */
  bar?: { color: string; from: number; to: number }[];
}

/** Worst first: the order of an aggregate's bar and of its words. */
export const BAR_ORDER: readonly Health[] = ["faulty", "degraded", "unknown", "healthy"];

/**
 * An aggregate's stacked bar: one segment per state present, in BAR_ORDER, widths in proportion to the dies, as
 * fractions of the bar. A state with any die gets at least `minimum` of the bar, so that 3 faulty dies of 131,072
 * still show; the largest segment gives up the room. The segments always tile the bar exactly.
 */
export function healthBar(counts: HealthCounts, minimum: number): { tone: Health; from: number; to: number }[] {
  const total = BAR_ORDER.reduce((sum, tone) => sum + counts[tone], 0);
  if (total === 0) return [];
  const present = BAR_ORDER.filter((tone) => counts[tone] > 0);
  const widths = present.map((tone) => Math.max(counts[tone] / total, minimum));
  const excess = widths.reduce((a, b) => a + b, 0) - 1;
  const largest = widths.indexOf(Math.max(...widths));
  widths[largest] = Math.max(0, widths[largest]! - excess);
  let from = 0;
  return present.map((tone, i) => {
    const to = i === present.length - 1 ? 1 : Math.min(1, from + widths[i]!);
    const segment = { tone, from, to };
    from = to;
    return segment;
  });
}

/**
 * The painter of a view's cells: for a node and the current pixels per view unit, its colours and label. Only what
 * is on screen is painted, so text layout (the costly part) stays proportional to the canvas, not to the cluster.
 */
export function cellPainter(input: PainterInput) {
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
    if ((node.kind === "switch" || node.kind === "plane") && overlay.fabric) return overlay.fabric.get(node.id);
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
    node.kind === "plane" || node.kind === "switch" || (node.kind === "server" && view.level === "cluster") || (node.kind === "superpod" && !detail.showServerCells);

  /**
   * An aggregate: its name (its id alone when narrow), then as room allows its counts and its distribution in words;
   * when there is room for one line only, the trouble goes beside the name ("pod-37 · 1 faulty").
   */
  const aggregateLabel = (node: TopologyNode, pixelsPerUnit: number): Omit<CellLabel, "width"> | null => {
    const height = node.height * pixelsPerUnit;
    const width = node.width * pixelsPerUnit;
    if (height < 12 || width < 30) return null;
    const fontSize = height >= 60 ? 12 : height >= 30 ? 10 : 9;
    const name = `{b|${node.kind === "superpod" && width >= 150 ? labels.superPod(node.id) : node.id}}`;
    const counts = node.healthCounts;
    const trouble = counts ? labels.healthCounts({ ...counts, healthy: 0 }) : "";
    // With a job drawn over the view, the job's share of the aggregate comes first after its name.
    const job = overlay && node.job ? labels.jobCounts(node.job) : null;
    let lines: string[];
    if (job) lines = height >= 34 ? [name, job] : [`${name} · ${job}`];
    else if (height >= 52) lines = [name, ...(node.counts ? [labels.counts(node)] : []), ...(counts ? [labels.healthCounts(counts)] : [])];
    else if (height >= 34) lines = [name, trouble || (counts ? labels.healthCounts(counts) : "")];
    else lines = [trouble ? `${name} · ${trouble}` : name];
    return { text: lines.filter(Boolean).join("\n"), position: "insideTopLeft", bold: true, fontSize };
  };

  const labelOf = (node: TopologyNode, pixelsPerUnit: number): (Omit<CellLabel, "width" | "fontSize"> & { fontSize?: number }) | null => {
    const pixels = node.width * pixelsPerUnit;
    if (node.aggregated) return aggregateLabel(node, pixelsPerUnit);
    switch (node.kind) {
      // A row or rack is always an aggregate (labelled above).
      case "row":
      case "rack":
        return null;
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
      case "switch": {
        const height = node.height * pixelsPerUnit;
        if (height < 9) return null;
        return { text: `{b|${labels.switch(node)}}`, position: "inside", bold: true, fontSize: Math.min(12, Math.floor(height * 0.3)) };
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

  /**
   * An aggregate is not one colour: a neutral box with a stacked bar of its dies' states along the bottom, outlined in
   * its worst state (thicker when faulty), with the distribution in words when there is room.
   */
  const aggregateLook = (node: TopologyNode, pixelsPerUnit: number): CellLook => {
    const label = aggregateLabel(node, pixelsPerUnit);
    const barPixels = node.width * pixelsPerUnit;
    const bar = node.healthCounts ? healthBar(node.healthCounts, Math.min(0.5, 6 / Math.max(1, barPixels))) : [];
    // With a job drawn over the view: an aggregate the job has no die in is dimmed; one where the job has faulty dies
    // is outlined as a suspect is.
    const jobTrouble = overlay && node.job && node.job.faulty + node.job.degraded > 0;
    return {
      fill: overlay && !node.job ? colors.dimmed : colors.box,
      stroke: jobTrouble ? OVERLAY_COLORS.suspect : node.health === "faulty" || node.health === "degraded" ? health[node.health] : colors.border,
      lineWidth: jobTrouble || node.health === "faulty" ? 3 : node.health === "degraded" ? 2 : 1,
      dashed: false,
      label: label && { ...label, width: Math.max(0, node.width * pixelsPerUnit - 8) },
      bar: bar.map((segment) => ({ color: health[segment.tone], from: segment.from, to: segment.to })),
    };
  };

  return {
    rankOf,
    look(node: TopologyNode, pixelsPerUnit: number): CellLook | null {
      if (!(Math.abs(pixelsPerUnit - scale) <= 1e-6 * pixelsPerUnit)) {
        scale = pixelsPerUnit;
        detail = detailAt(basis, pixelsPerUnit);
      }
      if (!visible(node)) return null;
      if (node.aggregated) return aggregateLook(node, pixelsPerUnit);
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
        // A parameter plane whose shape the profile does not know is drawn dashed: a placeholder, not a claim.
        dashed: node.kind === "superpod" || (node.kind === "plane" && node.planeKind === "parameter" && node.shape == null),
        label: label && {
          ...label,
          fontSize: label.fontSize ?? (node.kind === "die" && view.level !== "server" ? 10 : node.kind === "superpod" ? 13 : 12),
          width: Math.max(0, node.width * pixelsPerUnit - 8),
        },
      };
    },
  };
}
