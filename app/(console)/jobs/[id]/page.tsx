import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { listDiagnoses } from "@/db/queries/job-diagnoses";
import { loadJobSummary } from "@/db/queries/job-ranks";
import { requirePage } from "@/server/auth/page";
import { readForPage } from "@/server/http/read-routing";
import { JobClient } from "./client";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Job ${id}` };
}

/** One job: its ranks on the topology, its rank table, the faults that hit it and what they cost, its diagnoses. */
export default async function JobPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePage("read", `/jobs/${id}`);
  if (!/^\d{1,9}$/.test(id)) notFound();
  // The same loader as GET /api/v1/jobs/{id}: the job, its counts and first page of ranks, never all of them.
  const { value } = await readForPage(async ({ db }) => {
    const job = await loadJobSummary(db, Number(id));
    return job && { job, diagnoses: await listDiagnoses(db, job.id) };
  });
  if (!value) notFound();
  return <JobClient initialJob={value.job} initialDiagnoses={value.diagnoses} />;
}
