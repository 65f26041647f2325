import { withFaultHealth } from "@/lib/faults/health";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import type { TopologyLevel, TopologyView } from "@/lib/topology/model";
import { buildTopologyView } from "@/lib/topology/view";
import type { DatabaseHandle } from "../client";
import { faultHealthSnapshot } from "./faults";
import { topologyIndex } from "./topology";

export interface TopologyViewLoad {
  /** Changes with the cluster's open faults: with the inventory revision, it names the view's content (the ETag). */
  faultsVersion: string;
  /** Lays the view out from the cached inventory index, with live health. Throws not_found for an unknown id. */
  build: () => Promise<TopologyView>;
}

/**
 * The one loader of a topology view (index → view → fault health), for the page's first paint and for
 * `GET /api/v1/clusters/{id}/topology`. The health is read first, so the route can answer 304 or a cached body
 * without laying anything out.
 */
export async function loadTopologyView(handle: DatabaseHandle, cluster: ClusterHeader, level: TopologyLevel, id: string | null): Promise<TopologyViewLoad> {
  // Live health from the open fault events (issue 7): part of the ETag, so a new fault is a new body.
  const health = await faultHealthSnapshot(handle.pool, cluster.id);
  return {
    faultsVersion: health.version,
    build: async () => {
      const view = buildTopologyView(await topologyIndex(handle.db, cluster), level, id);
      return health.collected ? withFaultHealth(view, health.faults) : view;
    },
  };
}
