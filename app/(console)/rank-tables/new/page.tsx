import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requirePage } from "@/server/auth/page";
import { RankTableEditorClient } from "../editor-client";
import { workspaceSearchParams } from "@/lib/rank-table-workspace/url";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("rankTables.editor"))("newTitle") };
}

export default async function NewRankTablePage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  await requirePage("read", "/rank-tables/new");
  const { tab } = workspaceSearchParams.parse(await searchParams);
  return <RankTableEditorClient key="new" initial={undefined} initialTab={tab === "history" ? "visual" : tab} />;
}
