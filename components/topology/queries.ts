import { fetchJson } from "@/components/primitives/fetch-json";
import {
  nodeDetailsSchema,
  searchResultSchema,
  topologyViewSchema,
  type NodeDetails,
  type NodeKind,
  type SearchField,
  type SearchResult,
  type TopologyLevel,
  type TopologyView,
} from "@/lib/topology/model";

import { expandParams, NO_EXPAND, type ViewExpand } from "@/lib/topology/url";

const base = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/topology`;

/** `job`: a job of the cluster, counted per aggregate of the view (the job page's overlay). */
export function fetchTopologyView(cluster: string, level: TopologyLevel, id: string | null, signal?: AbortSignal, expand: ViewExpand = NO_EXPAND, job?: number): Promise<TopologyView> {
  const params = new URLSearchParams({ level });
  if (id !== null) params.set("id", id);
  expandParams(expand, params);
  if (job !== undefined) params.set("job", String(job));
  return fetchJson(`${base(cluster)}?${params}`, topologyViewSchema, { signal });
}

export function fetchNodeDetails(cluster: string, kind: NodeKind, id: string, signal?: AbortSignal): Promise<NodeDetails> {
  return fetchJson(`${base(cluster)}/node?${new URLSearchParams({ kind, id })}`, nodeDetailsSchema, { signal });
}

export function fetchSearch(cluster: string, q: string, field: SearchField, signal?: AbortSignal): Promise<SearchResult> {
  return fetchJson(`${base(cluster)}/search?${new URLSearchParams({ q, field })}`, searchResultSchema, { signal });
}
