import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { listJobs } from "@/db/queries/jobs-list";
import { jobListSearchParams, queryOf } from "@/lib/jobs/url";
import { requirePage } from "@/server/auth/page";
import { JobListClient } from "./client";
import { readForPage } from "@/server/http/read-routing";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("jobs"))("title") };
}

/** The jobs, newest first; the first paint comes straight from the database. */
export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const state = jobListSearchParams.parse(await searchParams);
  const query = queryOf(state);
  await requirePage("read", query ? `/jobs?${query}` : "/jobs");
  return <JobListClient initial={(await readForPage(({ db }) => listJobs(db))).value} />;
}
