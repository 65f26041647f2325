import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { appDatabase } from "@/db/client";
import { getRankTableForEditor } from "@/db/queries/rank-tables";
import { requirePage } from "@/server/auth/page";
import { RankTableEditorClient } from "../editor-client";
import { workspaceSearchParams } from "@/lib/rank-table-workspace/url";

export const dynamic = "force-dynamic";

async function load(id: string) {
  if (!/^\d{1,9}$/.test(id)) return undefined;
  return getRankTableForEditor(appDatabase().db, Number(id));
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const table = await load((await params).id);
  return { title: table?.name ?? "—" };
}

export default async function RankTablePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[]>> }) {
  const { id } = await params;
  const { tab } = workspaceSearchParams.parse(await searchParams);
  await requirePage("read", `/rank-tables/${id}`);
  const table = await load(id);
  if (!table) notFound();
  return <RankTableEditorClient key={`${table.id}`} initial={table} initialTab={tab} />;
}
