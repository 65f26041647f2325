import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { appDatabase } from "@/db/client";
import { listDiagnoses } from "@/db/queries/job-diagnoses";
import { getJob } from "@/db/queries/jobs";
import { requirePage } from "@/server/auth/page";
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
  const { db } = appDatabase();
  const job = await getJob(db, Number(id));
  if (!job) notFound();
  return <JobClient initialJob={job} initialDiagnoses={await listDiagnoses(db, job.id)} />;
}
