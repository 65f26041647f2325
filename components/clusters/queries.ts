import { z } from "zod";
import { clusterSummarySchema, type ClusterSummary } from "@/db/schema/cluster/validation";
import { fetchJson } from "@/components/primitives/fetch-json";

export const clustersQueryKey = ["clusters"] as const;

export function fetchClusters(): Promise<ClusterSummary[]> {
  return fetchJson("/api/v1/clusters", z.array(clusterSummarySchema));
}
