import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { listApiTokens } from "@/db/queries/tokens";
import { requirePage } from "@/server/auth/page";
import { TokensClient } from "./client";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.tokens"))("title") };
}

export default async function TokensPage() {
  await requirePage("admin", "/admin/tokens");
  return <TokensClient initialTokens={await listApiTokens(appDatabase().db)} />;
}
