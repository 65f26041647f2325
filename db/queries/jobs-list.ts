import { desc, eq, sql } from "drizzle-orm";
import type { JobSource, JobState } from "@/lib/jobs/model";
import type { Database } from "../client";
import { clusters, jobDiagnoses, jobs } from "../schema";
import type { JobListItem } from "../schema/job/validation";

/** The job list's columns and rows, shared by the list, a job's summary and its full record. */
const lastDiagnosis = sql<JobListItem["lastDiagnosis"]>`(
  select json_build_object('id', d.id, 'phase', d.phase, 'createdAt', d.created_at, 'authorName', d.author_name, 'files', d.files,
    'bytes', d.bytes, 'suspects', jsonb_array_length(d.report -> 'suspects'))
  from ${jobDiagnoses} d where d.job_id = ${jobs.id} order by d.created_at desc, d.id desc limit 1)`;

export const jobListColumns = {
  id: jobs.id,
  clusterId: clusters.id,
  clusterSlug: clusters.slug,
  clusterName: clusters.name,
  name: jobs.name,
  namespace: jobs.namespace,
  state: jobs.state,
  source: jobs.source,
  startedAt: jobs.startedAt,
  endedAt: jobs.endedAt,
  placement: jobs.placement,
  rankTableId: jobs.rankTableId,
  rankTableRevision: jobs.rankTableRevision,
  rankTableStatus: jobs.rankTableStatus,
  createdAt: jobs.createdAt,
  updatedAt: jobs.updatedAt,
  lastDiagnosis,
};

type ListRow = { [K in keyof typeof jobListColumns]: unknown } & Record<string, unknown>;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value === null ? null : new Date(value as string).toISOString());

export function toJobListItem(row: ListRow): JobListItem {
  const last = row.lastDiagnosis as (Omit<NonNullable<JobListItem["lastDiagnosis"]>, "createdAt"> & { createdAt: string }) | null;
  return {
    id: row.id as number,
    cluster: { id: row.clusterId as number, slug: row.clusterSlug as string, name: row.clusterName as string },
    name: row.name as string,
    namespace: row.namespace as string,
    state: row.state as JobState,
    source: row.source as JobSource,
    startedAt: iso(row.startedAt),
    endedAt: iso(row.endedAt),
    placement: row.placement as JobListItem["placement"],
    rankTableId: row.rankTableId as number | null,
    rankTableRevision: row.rankTableRevision as number | null,
    rankTableStatus: row.rankTableStatus as string | null,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    lastDiagnosis: last ? { ...last, createdAt: iso(last.createdAt)! } : null,
  };
}

/** Jobs, newest first, of one cluster (slug or id) or all. */
export async function listJobs(db: Database, cluster?: string): Promise<JobListItem[]> {
  const where = cluster === undefined ? undefined : /^\d{1,9}$/.test(cluster) ? eq(clusters.id, Number(cluster)) : eq(clusters.slug, cluster);
  const rows = await db
    .select(jobListColumns)
    .from(jobs)
    .innerJoin(clusters, eq(clusters.id, jobs.clusterId))
    .where(where)
    .orderBy(desc(sql`coalesce(${jobs.startedAt}, ${jobs.createdAt})`), desc(jobs.id));
  return rows.map(toJobListItem);
}

