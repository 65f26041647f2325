import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AffinityWorkbench } from "@/components/affinity/workbench";
import { requirePage } from "@/server/auth/page";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("affinity"))("title") };
}

export default async function AffinityPage() {
  await requirePage("read", "/affinity");
  return <AffinityWorkbench />;
}
