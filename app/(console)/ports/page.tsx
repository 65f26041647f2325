import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { portKeys } from "@/components/ports/api";
import { appDatabase } from "@/db/client";
import { findCluster, firstCluster } from "@/db/queries/clusters";
import { clusterPortReport } from "@/db/queries/ports";
import { can } from "@/lib/auth/roles";
import { queryOf } from "@/lib/jobs/url";
import { portsSearchParams } from "@/lib/ports/url";
import { requirePage } from "@/server/auth/page";
import { PortsClient } from "./client";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("ports"))("title") };
}

/**
 * A cluster's ports: the host × port-range map, the findings, the policy and the plan. The first report comes from
 * the API's loader under the client's key; viewers read, editors plan, apply and edit the policy.
 */
export default async function PortsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = portsSearchParams.parse(await searchParams);
  const query = queryOf(state);
  const principal = await requirePage("read", query ? `/ports?${query}` : "/ports");
  const { db } = appDatabase();
  const cluster = state.cluster ? await findCluster(db, state.cluster) : await firstCluster(db);
  const queryClient = new QueryClient();
  if (cluster) queryClient.setQueryData(portKeys.report(cluster.slug), await clusterPortReport(db, cluster.slug));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <PortsClient cluster={cluster ? { slug: cluster.slug, name: cluster.name } : null} canEdit={can(principal.role, "write")} />
    </HydrationBoundary>
  );
}
