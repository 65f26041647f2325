import { z } from "zod";
import { parseBusPlaneKey, parseSwitchKey } from "@/lib/fabric/derive";
import { nodeKinds, searchFields, topologyLevels, type NodeKind, type TopologyLevel } from "@/lib/topology/model";

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
  /** What the graph highlights for the selected node: a die's plane ports, or what a switch's failure takes down. */
  hl: z.enum(["ports", "impact"]).optional().catch(undefined),
});
export type TopologySearchParams = z.infer<typeof topologySearchParams>;

/** The view the state names: the cluster view has no id; a super pod or server view names its node. */
export function viewOf(state: Pick<TopologySearchParams, "level" | "id">): { level: TopologyLevel; id: string | null } {
  return { level: state.level, id: state.level === "cluster" ? null : (state.id ?? null) };
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
  if (state.hl) params.set("hl", state.hl);
  return params.toString();
}

/**
 * The view that shows a node, with the node selected: a die or NPU in its server's view, a server or bus plane in its
 * super pod's (a server without one in the cluster's), a node chip in its server's, a bus switch in its super pod's
 * (inside its plane's bar), anything else in the cluster view.
 */
export function landingViewOf(target: { kind: NodeKind; id: string; serverId?: string | undefined; superPodId?: string | null | undefined }): Pick<TopologySearchParams, "level" | "id" | "sel"> {
  const sel = `${target.kind}:${target.id}`;
  if (target.kind === "die" || target.kind === "npu") return { level: "server", id: target.serverId ?? target.id.replace(/\/(npu|d)\d+$/, ""), sel };
  if (target.kind === "switch") {
    const ref = parseSwitchKey(target.id);
    if (ref?.kind === "node-chip") return { level: "server", id: ref.serverId, sel };
    if (ref?.kind === "bus-switch") return { level: "superpod", id: ref.superPodId, sel };
  }
  const podOfPlane = target.kind === "plane" ? parseBusPlaneKey(target.id)?.superPodId : undefined;
  if ((target.kind === "server" || target.kind === "plane") && (target.superPodId ?? podOfPlane)) return { level: "superpod", id: (target.superPodId ?? podOfPlane)!, sel };
  return { level: "cluster", id: undefined, sel };
}
