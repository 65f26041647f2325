import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { listRankTables } from "@/db/queries/rank-tables";
import { requirePage } from "@/server/auth/page";
import { RankTableListClient } from "./client";
import { rankTableListQuery, rankTableListSearchParams } from "@/lib/rank-table-workspace/url";
import { readForPage } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("rankTables"))("title") };
}

/** The saved rank tables; the first paint comes straight from the database. */
export default async function RankTablesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const query = rankTableListQuery(rankTableListSearchParams.parse(await searchParams));
  await requirePage("read", query ? `/rank-tables?${query}` : "/rank-tables");
  return <RankTableListClient initial={(await readForPage(({ db }) => listRankTables(db))).value} />;
}
