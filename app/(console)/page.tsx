import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { listClusterSummaries } from "@/db/queries/inventory";
import { requirePage } from "@/server/auth/page";
import { OverviewClient } from "./client";
import { overviewSearchParams } from "./search-params";
import { readForPage } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("overview"))("title") };
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  await requirePage("read", "/");
  const { cluster } = overviewSearchParams.parse(await searchParams);
  const clusters = (await readForPage(({ db }) => listClusterSummaries(db))).value;
  return <OverviewClient initialClusters={clusters} selectedSlug={cluster} />;
}
