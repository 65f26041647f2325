import type { ClusterSpec } from "@/lib/inventory/model";
import { buildTopologyIndex, type TopologyIndex } from "./inventory-index";

/** An index over a spec as the database would give it back (id 1, revision 1). */
export function indexOf(spec: ClusterSpec, id = 1): TopologyIndex {
  return buildTopologyIndex({ id, slug: spec.slug, name: spec.name, mode: spec.mode, inventoryRevision: 1 }, spec);
}
