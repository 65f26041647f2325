import type { NodeKind, SearchField, TopologyLevel } from "@/lib/topology/model";
import { expandParams, NO_EXPAND, type ViewExpand } from "@/lib/topology/url";

/**
 * The TanStack Query keys of the topology, one factory for the client and for the page that seeds the first view
 * (app/(console)/topology/page.tsx): the same key, so the server's view is the client's cache entry. `cluster` is
 * the cluster as the URL names it (slug or id).
 */
export const topologyKeys = {
  /** Everything of one cluster: what a fault event or an inventory import makes stale. */
  cluster: (cluster: string) => ["topology", cluster] as const,
  /** `expand`: a server view's neighbourhood, in the key as its URL parameters ("" for none). */
  view: (cluster: string, level: TopologyLevel, id: string | null, expand: ViewExpand = NO_EXPAND) =>
    ["topology", cluster, "view", level, id, expandParams(expand).toString()] as const,
  /** A view with a job counted per aggregate (the job page). */
  jobView: (cluster: string, level: TopologyLevel, id: string | null, job: number) => ["topology", cluster, "view", level, id, `job=${job}`] as const,
  node: (cluster: string, kind: NodeKind | null, id: string | null) => ["topology", cluster, "node", kind, id] as const,
  search: (cluster: string, q: string, field: SearchField) => ["topology", cluster, "search", field, q] as const,
};
