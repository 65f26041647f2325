import { demoA2Cluster } from "@/lib/inventory/demo";
import { a2TopoDefault, kunpeng920Lscpu } from "./fixtures/real-shapes";

export interface DemoCpuLayout {
  readonly cluster: string;
  readonly serverId: string;
  readonly lscpu: string;
  readonly topo: string;
}

/**
 * The demo's CPU layouts, so the affinity page and a job's CPU binding have something to plan on the first start:
 * the first A2 server, an Atlas 800T A2 host as users posted one (Kunpeng 920, 4 × 48 cores in 8 NUMA nodes, each
 * NPU on its own node; the shapes and their sources are in fixtures/real-shapes.ts). Only that one: the demo's
 * failed job runs on it and a2-node1, so its page shows both a plan and the way to add a missing layout. The A3
 * demo gets none: no A3 host's lscpu with its topo's CPU affinity has been published (the A3 topo users posted has
 * no affinity column).
 */
export function demoCpuLayouts(): DemoCpuLayout[] {
  const a2 = demoA2Cluster();
  return [{ cluster: a2.slug, serverId: a2.servers[0]!.serverId, lscpu: kunpeng920Lscpu, topo: a2TopoDefault }];
}
