import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { RankTableCheckerClient } from "./client";
import { rankTableCheckerSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("rankTables"))("title") };
}

export default async function RankTablesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const { severity } = rankTableCheckerSearchParams.parse(await searchParams);
  return <RankTableCheckerClient initialSeverity={severity} />;
}
