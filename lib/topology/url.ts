import { z } from "zod";
import { parseBusPlaneKey, parseSwitchKey } from "@/lib/fabric/derive";
import { linkKinds, type LinkKind } from "@/lib/inventory/vocabulary";
import { MAX_HOPS, nodeKinds, searchFields, topologyLevels, type NodeKind, type TopologyLevel, type TopologyView } from "@/lib/topology/model";
import { podOfRackId } from "@/lib/topology/racks";
import { rowIdOfRackId } from "@/lib/topology/rows";

/**
 * The link kinds a neighbourhood expands along, as a URL value: comma-separated, in the vocabulary's order, each
 * once; unknown names are dropped, and none left means every kind.
 */
export const linkKindList = z
  .string()
  .max(200)
  .transform((value) => {
    const wanted = new Set(value.split(","));
    return linkKinds.filter((kind) => wanted.has(kind));
  });

/**
 * The topology page's URL state, parsed in one place: the cluster, the view (level + id), the selected node
 * (`sel=<kind>:<id>`), the search box and the rank table the dies' ranks come from. A pasted link opens the same view.
 */
export const topologySearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
  level: z.enum(topologyLevels).catch("cluster").default("cluster"),
  id: z.string().min(1).max(200).optional().catch(undefined),
  sel: z
    .string()
    .regex(new RegExp(`^(${nodeKinds.join("|")}):.{1,200}$`))
    .optional()
    .catch(undefined),
  q: z.string().max(200).optional().catch(undefined),
  field: z.enum(searchFields).catch("any").default("any"),
  /**
   * Where the dies' ranks come from: `inventory` (a table built from the inventory), `table:<id>` (a saved rank
   * table) or `file` (a rank table file loaded in this browser).
   */
  ranks: z
    .string()
    .regex(/^(inventory|file|table:\d{1,9})$/)
    .catch("inventory")
    .default("inventory"),
  /** A server view expanded `hops` hops (0: the server alone) along the link kinds `via` (none: all), from die `from` (none: the whole server). */
  hops: z.coerce.number().int().min(0).max(MAX_HOPS).catch(0).default(0),
  via: linkKindList.optional().catch(undefined),
  from: z.string().min(1).max(200).optional().catch(undefined),
  /** What the graph highlights for the selected node: a die's plane ports, or what a switch's failure takes down. */
  hl: z.enum(["ports", "impact"]).optional().catch(undefined),
});
export type TopologySearchParams = z.infer<typeof topologySearchParams>;

/** What a server view is expanded by; the same fields in the page's URL and in the API's query. */
export interface ViewExpand {
  hops: number;
  /** Empty: every kind. */
  via: readonly LinkKind[];
  from: string | null;
}
export const NO_EXPAND: ViewExpand = { hops: 0, via: [], from: null };

/**
 * The view the state names: the cluster view has no id; a super pod or server view names its node; only a server
 * view expands (a neighbourhood), and only with hops.
 */
export function viewOf(state: Pick<TopologySearchParams, "level" | "id"> & Partial<Pick<TopologySearchParams, "hops" | "via" | "from">>): {
  level: TopologyLevel;
  id: string | null;
  expand: ViewExpand;
} {
  const expand: ViewExpand =
    state.level === "server" && (state.hops ?? 0) > 0 ? { hops: state.hops!, via: state.via ?? [], from: state.from ?? null } : NO_EXPAND;
  return { level: state.level, id: state.level === "cluster" ? null : (state.id ?? null), expand };
}

/** An expansion as URL parameters (`hops`, `via`, `from`), defaults left out: for the page's URL and the API's. */
export function expandParams(expand: ViewExpand, params = new URLSearchParams()): URLSearchParams {
  if (expand.hops > 0) {
    params.set("hops", String(expand.hops));
    if (expand.via.length > 0 && expand.via.length < linkKinds.length) params.set("via", expand.via.join(","));
    if (expand.from) params.set("from", expand.from);
  }
  return params;
}

export function parseSelection(sel: string | undefined): { kind: NodeKind; id: string } | null {
  if (!sel) return null;
  const at = sel.indexOf(":");
  return { kind: sel.slice(0, at) as NodeKind, id: sel.slice(at + 1) };
}

/** The URL query for a state, leaving defaults out so links stay short. */
export function topologyQuery(state: Partial<TopologySearchParams>): string {
  const params = new URLSearchParams();
  if (state.cluster) params.set("cluster", state.cluster);
  if (state.level && state.level !== "cluster") params.set("level", state.level);
  if (state.id && state.level !== "cluster") params.set("id", state.id);
  if (state.sel) params.set("sel", state.sel);
  if (state.q) params.set("q", state.q);
  if (state.field && state.field !== "any") params.set("field", state.field);
  if (state.ranks && state.ranks !== "inventory") params.set("ranks", state.ranks);
  if (state.level === "server") expandParams({ hops: state.hops ?? 0, via: state.via ?? [], from: state.from ?? null }, params);
  if (state.hl) params.set("hl", state.hl);
  return params.toString();
}

/**
 * The view that shows a node, with the node selected: a die or NPU in its server's view, a server in its rack's (when its
 * pod is drawn by rack), a server or bus plane in its super pod's (a server without one in the cluster's), a node chip in its server's, a bus switch in its super pod's
 * (inside its plane's bar), a super pod's rack in its pod's view, anything else in the cluster view. When the cluster
 * view draws rows of racks (`rowsDrawn`, lib/topology/rows.ts) it draws neither racks nor servers: a plain rack lands
 * in its row's view, and a plain server whose rack is not known in its own view.
 */
export function landingViewOf(target: {
  kind: NodeKind;
  id: string;
  serverId?: string | undefined;
  superPodId?: string | null | undefined;
  rackId?: string | undefined;
  rowsDrawn?: boolean | undefined;
}): Pick<TopologySearchParams, "level" | "id" | "sel"> {
  const sel = `${target.kind}:${target.id}`;
  // A server of a pod drawn by rack: its rack's view, where it is drawn.
  if (target.kind === "server" && target.rackId) return { level: "rack", id: target.rackId, sel };
  if (target.kind === "rack") {
    const pod = podOfRackId(target.id);
    if (pod !== null) return { level: "superpod", id: pod, sel };
    const row = target.rowsDrawn ? rowIdOfRackId(target.id) : null;
    if (row !== null) return { level: "row", id: row, sel };
  }
  if (target.kind === "die" || target.kind === "npu") return { level: "server", id: target.serverId ?? target.id.replace(/\/(npu|d)\d+$/, ""), sel };
  if (target.kind === "switch") {
    const ref = parseSwitchKey(target.id);
    if (ref?.kind === "node-chip") return { level: "server", id: ref.serverId, sel };
    if (ref?.kind === "bus-switch") return { level: "superpod", id: ref.superPodId, sel };
  }
  const podOfPlane = target.kind === "plane" ? parseBusPlaneKey(target.id)?.superPodId : undefined;
  if ((target.kind === "server" || target.kind === "plane") && (target.superPodId ?? podOfPlane)) return { level: "superpod", id: (target.superPodId ?? podOfPlane)!, sel };
  if (target.kind === "server" && target.rowsDrawn && !target.superPodId) return { level: "server", id: target.id, sel };
  return { level: "cluster", id: undefined, sel };
}

/** Whether the cluster of a view is drawn by rows of racks: the cluster view draws rows, a view inside one has it in its path. */
export function drawsRows(view: Pick<TopologyView, "path" | "nodes">): boolean {
  return view.path.some((crumb) => crumb.level === "row") || view.nodes.some((node) => node.kind === "row");
}
