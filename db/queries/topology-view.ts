import { createHash } from "node:crypto";
import { linkKinds } from "@/lib/inventory/vocabulary";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import { healthOverlay, withHealth } from "@/lib/topology/health-overlay";
import type { TopologyLevel, TopologyView } from "@/lib/topology/model";
import { podOfRackId } from "@/lib/topology/racks";
import { NO_EXPAND, type ViewExpand } from "@/lib/topology/url";
import { buildTopologyView } from "@/lib/topology/view";
import type { DatabaseHandle } from "../client";
import { viewFabricOf } from "./fabric";
import { faultHealthSnapshot } from "./faults";
import { topologyIndex } from "./topology";

export interface TopologyViewLoad {
  /**
   * Changes with the cluster's open faults (and a super pod's bus planes): with the inventory revision, it names the
   * view's content (the ETag).
   */
  faultsVersion: string;
  /** Lays the view out from the cached inventory index, with live health. Throws not_found for an unknown id. */
  build: () => Promise<TopologyView>;
}

/**
 * The one loader of a topology view (index and, for a super pod, its bus planes → view → fault health, aggregated
 * per super pod, server and NPU), for the page's first paint and for `GET /api/v1/clusters/{id}/topology`. The health
 * and planes are read first, so the route can answer 304 or a cached body without laying anything out. `expand`: a
 * server view's neighbourhood (hops along link kinds; none: every kind).
 */
export async function loadTopologyView(
  handle: DatabaseHandle,
  cluster: ClusterHeader,
  level: TopologyLevel,
  id: string | null,
  expand: ViewExpand = NO_EXPAND,
): Promise<TopologyViewLoad> {
  // Live health from the open fault events (issue 7): part of the ETag, so a new fault is a new body. The stored
  // fabric a view draws (a super pod's bus planes, a server's chips and planes, the parameter plane) is part of it
  // too, since choosing another fabric profile changes it without a new inventory revision.
  // A rack draws its super pod's bus planes.
  const rackPod = level === "rack" && id !== null ? podOfRackId(id) : null;
  const fabricOf = level === "rack" ? (rackPod === null ? Promise.resolve({}) : viewFabricOf(handle.db, cluster.id, "superpod", rackPod)) : viewFabricOf(handle.db, cluster.id, level, id);
  const [health, fabric] = await Promise.all([faultHealthSnapshot(handle.pool, cluster.id), fabricOf]);
  const drawn = Object.values(fabric).some((part) => (Array.isArray(part) ? part.length > 0 : part != null));
  const fabricVersion = drawn ? `.${createHash("sha256").update(JSON.stringify(fabric)).digest("base64url").slice(0, 8)}` : "";
  return {
    faultsVersion: health.version + fabricVersion,
    build: async () => {
      const index = await topologyIndex(handle.db, cluster);
      const expansion = level === "server" && expand.hops > 0 ? { hops: expand.hops, kinds: expand.via.length ? expand.via : linkKinds, from: expand.from } : undefined;
      const view = buildTopologyView(index, level, id, fabric, expansion);
      return withHealth(view, healthOverlay(index, health.collected ? health.faults : null));
    },
  };
}
