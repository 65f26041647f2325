import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { findCluster, firstCluster } from "@/db/queries/clusters";
import { can } from "@/lib/auth/roles";
import { requirePage } from "@/server/auth/page";
import { FaultSettingsClient } from "./client";
import { faultSettingsSearchParams } from "@/lib/faults/url";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("faults.settings"))("title") };
}

/** Every signed-in role sees the settings; changing them takes the role the settings API's PUT needs (write). */
export default async function FaultSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = faultSettingsSearchParams.parse(await searchParams);
  const principal = await requirePage("read", state.cluster ? `/faults/settings?cluster=${state.cluster}` : "/faults/settings");
  const { db } = appDatabase();
  const cluster = state.cluster ? await findCluster(db, state.cluster) : await firstCluster(db);
  return <FaultSettingsClient cluster={cluster ? { slug: cluster.slug, name: cluster.name } : null} canEdit={can(principal.role, "write")} />;
}
