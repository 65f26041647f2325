import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { FaultsClient } from "./client";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("faults"))("title") };
}

export default function FaultsPage() {
  return <FaultsClient />;
}
