import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { faultKeys } from "@/components/faults/api";
import { findCluster, firstCluster } from "@/db/queries/clusters";
import { loadFaultReport } from "@/db/queries/faults";
import { reportPeriod, reportQuery, reportSearchParams } from "@/lib/faults/report-url";
import { requirePage } from "@/server/auth/page";
import { FaultReportClient } from "./client";
import { readForPage } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("faults.report"))("title") };
}

/**
 * The printable fault report. A URL without its cluster or period is completed first (the last 7 whole UTC days),
 * so the address in the browser always reproduces the report; the report is loaded with the API's loader.
 */
export default async function FaultReportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = reportSearchParams.parse(await searchParams);
  const query = reportQuery(state);
  await requirePage("read", query ? `/faults/report?${query}` : "/faults/report");
  const period = reportPeriod(state);
  const compare = state.compare === "previous";
  const { value } = await readForPage(async ({ db, pool }) => {
    const cluster = state.cluster ? await findCluster(db, state.cluster) : await firstCluster(db);
    const complete = !cluster || (state.cluster === cluster.slug && state.from === period.from && state.to === period.to);
    return { cluster, report: cluster && complete ? await loadFaultReport(pool, cluster, { ...period, compare }) : null };
  });
  const { cluster, report } = value;
  if (cluster && !report) redirect(`/faults/report?${reportQuery({ ...state, cluster: cluster.slug, ...period })}`);
  const queryClient = new QueryClient();
  if (cluster && report) queryClient.setQueryData(faultKeys.report(cluster.slug, period.from, period.to, compare), report);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <FaultReportClient cluster={cluster?.slug ?? null} />
    </HydrationBoundary>
  );
}
