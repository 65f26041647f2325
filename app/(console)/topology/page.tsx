import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { findCluster, firstCluster } from "@/db/queries/clusters";
import { faultHealthSnapshot } from "@/db/queries/faults";
import { topologyIndex } from "@/db/queries/topology";
import { withFaultHealth } from "@/lib/faults/health";
import type { TopologyView } from "@/lib/topology/model";
import { buildTopologyView, TopologyNotFoundError } from "@/lib/topology/view";
import { requirePage } from "@/server/auth/page";
import { TopologyClient } from "./client";
import { topologyQuery, topologySearchParams } from "./search-params";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("topology"))("title") };
}

/** Reads the view the URL names from the inventory, so the first paint needs no API round trip. */
export default async function TopologyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = topologySearchParams.parse(await searchParams);
  // A deep link survives the detour through the sign-in page.
  const query = topologyQuery(state);
  await requirePage("read", query ? `/topology?${query}` : "/topology");
  const { db } = appDatabase();
  const cluster = state.cluster ? await findCluster(db, state.cluster) : await firstCluster(db);
  let initialView: TopologyView | null = null;
  if (cluster) {
    try {
      initialView = buildTopologyView(await topologyIndex(db, cluster), state.level, state.level === "cluster" ? null : (state.id ?? null));
      const health = await faultHealthSnapshot(appDatabase().pool, cluster.id);
      if (health.collected) initialView = withFaultHealth(initialView, health.faults);
    } catch (error) {
      if (!(error instanceof TopologyNotFoundError)) throw error;
    }
  }
  return <TopologyClient defaultCluster={cluster?.slug ?? null} initialView={initialView} />;
}
