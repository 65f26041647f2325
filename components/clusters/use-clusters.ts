"use client";

import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { clusterSummarySchema, type ClusterSummary } from "@/db/schema/cluster/validation";
import { fetchJson } from "@/components/primitives/fetch-json";
import { clustersQueryKey } from "./queries";

function fetchClusters(): Promise<ClusterSummary[]> {
  return fetchJson("/api/v1/clusters", z.array(clusterSummarySchema));
}

/**
 * The cluster list, the one way every client component reads it. The console layout puts it in the query cache for
 * each page (`clustersQueryKey`), so on a page load this answers from there; `enabled` holds the request back until a
 * component needs the list (a dialog not yet open, a table with no cluster linked).
 */
export function useClusters({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: clustersQueryKey, queryFn: fetchClusters, enabled });
}
