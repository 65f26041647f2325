import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { listRankTables } from "@/db/queries/rank-tables";
import { requirePage } from "@/server/auth/page";
import { RankTableListClient } from "./client";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("rankTables"))("title") };
}

/** The saved rank tables; the first paint comes straight from the database. */
export default async function RankTablesPage() {
  await requirePage("read", "/rank-tables");
  return <RankTableListClient initial={await listRankTables(appDatabase().db)} />;
}
