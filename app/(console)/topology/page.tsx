import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { topologyKeys } from "@/components/topology/query-keys";
import { findCluster, firstCluster } from "@/db/queries/clusters";
import { loadTopologyView } from "@/db/queries/topology-view";
import { DomainError } from "@/lib/errors";
import { topologyQuery, topologySearchParams, viewOf } from "@/lib/topology/url";
import { requirePage } from "@/server/auth/page";
import { TopologyClient } from "./client";
import { readForPage } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("topology"))("title") };
}

/**
 * Reads the view the URL names with the API's loader and hands it to the client's cache under the key the client
 * asks for, so the first paint needs no API round trip.
 */
export default async function TopologyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = topologySearchParams.parse(await searchParams);
  // A deep link survives the detour through the sign-in page.
  const query = topologyQuery(state);
  await requirePage("read", query ? `/topology?${query}` : "/topology");
  const { level, id, expand } = viewOf(state);
  const { value, read } = await readForPage(async (handle) => {
    const cluster = state.cluster ? await findCluster(handle.db, state.cluster) : await firstCluster(handle.db);
    if (!cluster) return { cluster, view: undefined };
    try {
      return { cluster, view: await (await loadTopologyView(handle, cluster, level, id, expand)).build() };
    } catch (error) {
      // A super pod or server the cluster does not have: the client asks the API, which says so.
      if (!(error instanceof DomainError && error.kind === "not_found")) throw error;
      return { cluster, view: undefined };
    }
  });
  const { cluster, view } = value;
  const queryClient = new QueryClient();
  if (cluster && view) {
    // From a replica that is behind: the hint the API's answer would carry (lib/data-as-of.ts).
    queryClient.setQueryData(topologyKeys.view(state.cluster ?? cluster.slug, level, id, expand), read.asOf ? { ...view, dataAsOf: read.asOf.toISOString() } : view);
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TopologyClient defaultCluster={cluster?.slug ?? null} />
    </HydrationBoundary>
  );
}
