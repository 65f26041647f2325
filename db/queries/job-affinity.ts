/**
 * A job's CPU binding: its servers (model, stored CPU layout, the job's NPUs on each) checked and planned. The answer
 * is kept per job and options while nothing it reads has changed: the job page asks for it on every load, and reading a
 * 100,000-rank job whole for it cost some 0.6 s of the server's one JS thread each time.
 */
import { sql } from "drizzle-orm";
import type { CpuLayout } from "@/lib/affinity/layout";
import { planJobAffinity, type JobAffinityOptions, type JobAffinityView, type JobServer } from "@/lib/affinity/job-plan";
import { notFound } from "@/lib/errors";
import { SharedAnswers } from "@/lib/shared-answers";
import type { Database } from "../client";

/**
 * Sixteen answers at most (a job with a few option sets, or a few jobs): a view lists each of the job's servers at
 * most once (some 16,000 at 131,072 NPUs), so entries rather than bytes are counted. Nothing in it depends on the
 * clock, so it is kept as long as its revision holds. Exported for the tests that count computations.
 */
export const keptAffinity = new SharedAnswers<JobAffinityView>({ maxEntries: 16 });

/**
 * What the answer reads, in one value; undefined when there is no such job:
 * - the job's last write (`updated_at`, set by every write of its ranks or environment: jobs.ts, jobs-rings-config.ts, ports.ts);
 * - its cluster's slug and inventory revision (the servers' models);
 * - its cluster's stored CPU layouts (cpu-layout.ts): their count and an order-free digest of each row's server and
 *   `xmin` (the writing transaction, new on every insert or update), so a layout written twice within the same
 *   `updated_at` millisecond still gives a new revision. Digesting every layout of the cluster rather than the job's
 *   servers' avoids reading the ranks to know them; a write to another server's layout only costs a recomputation.
 */
async function revisionOf(db: Database, jobId: number): Promise<string | undefined> {
  const { rows } = await db.execute<{ revision: string }>(sql`
    select concat_ws('|', j.updated_at::text, c.slug, c.inventory_revision,
      (select count(*) || ':' || coalesce(bit_xor(hashtextextended(l.server_id || '@' || l.xmin::text, 0)), 0)
        from server_cpu_layouts l where l.cluster_id = c.id)) as revision
    from jobs j join clusters c on c.id = j.cluster_id where j.id = ${jobId}`);
  return rows[0]?.revision;
}

/**
 * The job's servers with its NPUs on each, their models and stored layouts, in one query: the placed ranks' dies
 * (`<server>/<device>`, job_ranks.die_key) grouped by server in PostgreSQL, so a server's few rows come back rather
 * than every rank.
 */
async function jobServersOf(db: Database, jobId: number): Promise<{ cluster: string; environment: Record<string, string>; servers: JobServer[] } | undefined> {
  const { rows: jobRows } = await db.execute<{ cluster_id: number; slug: string; environment: Record<string, string> }>(sql`
    select j.cluster_id, c.slug, j.environment from jobs j join clusters c on c.id = j.cluster_id where j.id = ${jobId}`);
  const job = jobRows[0];
  if (!job) return undefined;
  const { rows } = await db.execute<{ server_id: string; npus: string[]; model: string | null; layout: CpuLayout | null }>(sql`
    with placed as (
      select left(die_key, length(die_key) - strpos(reverse(die_key), '/')) as server_id,
        array_agg(distinct right(die_key, strpos(reverse(die_key), '/') - 1)) as npus
      from job_ranks where job_id = ${jobId} and die_key is not null group by 1)
    select p.server_id, p.npus, s.model, l.layout from placed p
      left join servers s on s.cluster_id = ${job.cluster_id} and s.server_id = p.server_id
      left join server_cpu_layouts l on l.cluster_id = ${job.cluster_id} and l.server_id = p.server_id`);
  const servers = rows
    .map((row) => ({
      serverId: row.server_id,
      // A server removed from the inventory since the job was placed keeps its ranks; its model is no longer known.
      model: row.model ?? "?",
      npus: [...new Set(row.npus.map(Number))].sort((a, b) => a - b),
      layout: row.layout,
    }))
    // Code-unit order, as the groups' servers and the env comments have always listed them (not the database's collation).
    .sort((a, b) => (a.serverId < b.serverId ? -1 : a.serverId > b.serverId ? 1 : 0));
  return { cluster: job.slug, environment: job.environment, servers };
}

/** The loader of `GET /api/v1/jobs/{id}/affinity` and the CLI's `affinity plan --job`. */
export async function loadJobAffinity(db: Database, jobId: number, options: JobAffinityOptions = {}): Promise<JobAffinityView> {
  const revision = await revisionOf(db, jobId);
  if (revision === undefined) throw notFound(`there is no job ${jobId}`);
  return keptAffinity.get(`${jobId}:${options.reserve ?? 0}:${options.mode ?? 1}`, () => revision, async () => {
    const job = await jobServersOf(db, jobId);
    if (!job) throw notFound(`there is no job ${jobId}`);
    return { value: { jobId, cluster: job.cluster, ...planJobAffinity(job.servers, job.environment, options) }, size: 0, maxAgeMs: Number.POSITIVE_INFINITY };
  });
}
