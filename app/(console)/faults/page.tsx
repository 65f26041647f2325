import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { findCluster, firstCluster } from "@/db/queries/clusters";
import { can } from "@/lib/auth/roles";
import { requirePage } from "@/server/auth/page";
import { FaultsClient } from "./client";
import { faultsQuery, faultsSearchParams } from "@/lib/faults/url";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("faults"))("title") };
}

export default async function FaultsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = faultsSearchParams.parse(await searchParams);
  const query = faultsQuery(state);
  const principal = await requirePage("read", query ? `/faults?${query}` : "/faults");
  const { db } = appDatabase();
  const cluster = state.cluster ? await findCluster(db, state.cluster) : await firstCluster(db);
  return <FaultsClient defaultCluster={cluster?.slug ?? null} canWrite={can(principal.role, "write")} />;
}
