/**
 * The views the scale bench (./scale.ts) times, each as what its API route runs (the loader and the JSON it
 * answers), against a cluster whose topology index is built. A new view adds an entry here: the bench times it
 * cold (its first request on the built index) and warm, and prints how that grows from 16k to 524k NPUs.
 */
import type { DatabaseHandle } from "@/db/client";
import { loadNodeDetails } from "@/db/queries/topology";
import { loadTopologyView } from "@/db/queries/topology-view";
import type { ClusterHeader, TopologyIndex } from "@/lib/topology/inventory-index";

export interface ScaleView {
  /** A short name for the table: "cluster", "superpod", "n-hop 2"… */
  name: string;
  /** Runs what the view's route runs for one request and returns the body it would send. */
  request(handle: DatabaseHandle, cluster: ClusterHeader, index: TopologyIndex): Promise<unknown>;
}

const topologyView = (level: "cluster" | "superpod" | "server", pick: (index: TopologyIndex) => string | null): ScaleView => ({
  name: level,
  async request(handle, cluster, index) {
    // GET /api/v1/clusters/{id}/topology?level=…&id=… (app/api/v1/clusters/[id]/topology/route.ts).
    const load = await loadTopologyView(handle, cluster, level, pick(index));
    return load.build();
  },
});

/** A node in the middle of the cluster, not the first one: nothing about it is warm by accident. */
const middle = <T>(list: readonly T[]): T => list[Math.floor(list.length / 2)]!;

export const scaleViews: ScaleView[] = [
  topologyView("cluster", () => null),
  topologyView("superpod", (index) => middle(index.pods).id),
  topologyView("server", (index) => middle(index.servers).id),
  {
    name: "details (die)",
    // GET /api/v1/clusters/{id}/topology/node?kind=die&id=… (the details panel).
    request: async (handle, cluster, index) => (await loadNodeDetails(handle, cluster, "die", middle(index.dieByRank).id)).details,
  },
];
