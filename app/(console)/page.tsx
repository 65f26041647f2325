import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requirePage } from "@/server/auth/page";
import { OverviewClient } from "./client";
import { overviewSearchParams } from "./search-params";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("overview"))("title") };
}

/** The clusters come with the console's layout (its query cache), as every page's shell needs them. */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  await requirePage("read", "/");
  const { cluster } = overviewSearchParams.parse(await searchParams);
  return <OverviewClient selectedSlug={cluster} />;
}
