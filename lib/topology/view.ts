import type { TopologyIndex } from "./inventory-index";
import type { TopologyLevel, TopologyView } from "./model";
import type { ViewFabric } from "./nodes";
import { CLUSTER_SERVER_CELLS_MAX, rackIndex } from "./racks";
import { rowIndex } from "./rows";
import { clusterView } from "./view-cluster";
import { superPodView } from "./view-pod";
import { rackView } from "./view-racks";
import { rowView } from "./view-rows";
import { crumbsFor, TopologyNotFoundError } from "./view-parts";
import { serverView, type ViewExpansion } from "./view-server";

export { crumbsFor, TopologyNotFoundError, CLUSTER_SERVER_CELLS_MAX };

/**
 * What one view of the cluster draws. `fabric`: what the stored fabric adds to it (none: the view is drawn from the
 * inventory's links alone: a super pod with its HCCS links, the RoCE links between pods). `expansion`: a server
 * view's neighbourhood. Throws TopologyNotFoundError for an id the inventory does not have.
 */
export function buildTopologyView(index: TopologyIndex, level: TopologyLevel, id: string | null, fabric: ViewFabric = {}, expansion?: ViewExpansion): TopologyView {
  if (level === "cluster") return clusterView(index, fabric);
  if (level === "superpod") {
    const pod = id === null ? undefined : index.podById.get(id);
    if (!pod) throw new TopologyNotFoundError("superpod", id ?? "");
    return superPodView(index, pod, fabric.busPlanes ?? []);
  }
  if (level === "row") {
    const row = id === null ? undefined : rowIndex(index).byId.get(id);
    if (!row) throw new TopologyNotFoundError("row", id ?? "");
    return rowView(index, row);
  }
  if (level === "rack") {
    const rack = id === null ? undefined : rackIndex(index).byId.get(id);
    if (!rack) throw new TopologyNotFoundError("rack", id ?? "");
    return rackView(index, rack, fabric.busPlanes ?? []);
  }
  const server = id === null ? undefined : index.serverById.get(id);
  if (!server) throw new TopologyNotFoundError("server", id ?? "");
  return serverView(index, server, fabric, expansion);
}
