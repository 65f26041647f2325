import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { appDatabase } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { requirePage } from "@/server/auth/page";
import { AuditClient, auditPageSize } from "./client";
import { auditSearchParams } from "./search-params";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.audit"))("title") };
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  await requirePage("admin", "/admin/audit");
  const params = auditSearchParams.parse(await searchParams);
  const initial = await listAudit(appDatabase().db, { ...params, pageSize: auditPageSize });
  return <AuditClient params={params} initial={initial} />;
}
