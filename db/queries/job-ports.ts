/**
 * A job's port check, bounded (issue 21): the check of one job against the jobs sharing its hosts (`jobPortCheck`),
 * answered in counts by the job writes (POST/PATCH `/jobs`, rings-config) and `GET …/ports`, and a page at a time by
 * `…/ports/bindings` and `…/ports/findings`. It is kept per job while nothing it reads has changed, so the check a
 * write ran serves the job page after it, and every page costs a fingerprint query and a slice, not a new check of
 * 100,000 ranks.
 */
import { sql } from "drizzle-orm";
import { jobPortBindingsQuerySchema, jobPortFindingsQuerySchema, type JobPortBindingsQueryInput, type JobPortFindingsQueryInput } from "@/db/schema/job/ports";
import { notFound } from "@/lib/errors";
import { jobPortBindingsPage, jobPortFindingsPage, jobPortSummary, type JobPortBinding, type JobPortFinding, type JobPortPage, type JobPortSummary } from "@/lib/ports/job-view";
import type { JobPortCheck } from "@/lib/ports/report";
import { SharedAnswers } from "@/lib/shared-answers";
import type { Database } from "../client";
import { jobPortCheck } from "./ports";

interface Kept {
  live: boolean;
  check: JobPortCheck;
}

/**
 * A check depends on the clock too (a running job's lifetime ends "now"), so a kept one is also dropped after a
 * minute. Two jobs at most: a 131,072-rank check holds some 100 MB of bindings (so no size is counted, only the
 * entries). One computation per job at a time, shared by the callers who come meanwhile (lib/shared-answers.ts).
 */
const KEEP_MS = 60_000;
const kept = new SharedAnswers<Kept>({ maxEntries: 2 });

/**
 * What the check reads, in one value: the live jobs of the job's cluster (ids and last writes), its port policy's
 * last write and its inventory revision. Undefined when there is no such job.
 */
async function fingerprintOf(db: Database, jobId: number): Promise<{ fingerprint: string; live: boolean } | undefined> {
  const { rows } = await db.execute<{ state: string; fingerprint: string }>(sql`
    select j.state, concat_ws('|', c.inventory_revision,
      (select p.updated_at::text from cluster_port_policies p where p.cluster_id = c.id),
      (select string_agg(l.id || ':' || l.updated_at::text, ',' order by l.id) from jobs l
        where l.cluster_id = c.id and l.state in ('running', 'pending', 'unknown'))) as fingerprint
    from jobs j join clusters c on c.id = j.cluster_id where j.id = ${jobId}`);
  const row = rows[0];
  return row && { fingerprint: row.fingerprint, live: ["running", "pending", "unknown"].includes(row.state) };
}

async function keptCheck(db: Database, jobId: number, now: number): Promise<Kept> {
  const current = await fingerprintOf(db, jobId);
  if (!current) throw notFound(`there is no job ${jobId}`);
  return kept.get(String(jobId), () => current.fingerprint, async () => ({
    value: { live: current.live, check: await jobPortCheck(db, jobId, now) },
    size: 0,
    maxAgeMs: KEEP_MS,
  }));
}

/** `GET /api/v1/jobs/{id}/ports`, and the `ports` of a job write's answer. */
export async function loadJobPortSummary(db: Database, jobId: number, now = Date.now()): Promise<JobPortSummary> {
  const { check, live } = await keptCheck(db, jobId, now);
  return jobPortSummary(check, live);
}

/** `GET /api/v1/jobs/{id}/ports/bindings`. */
export async function loadJobPortBindings(db: Database, jobId: number, input: JobPortBindingsQueryInput = {}, now = Date.now()): Promise<JobPortPage<JobPortBinding>> {
  return jobPortBindingsPage((await keptCheck(db, jobId, now)).check, jobPortBindingsQuerySchema.parse(input));
}

/** `GET /api/v1/jobs/{id}/ports/findings`. */
export async function loadJobPortFindings(db: Database, jobId: number, input: JobPortFindingsQueryInput = {}, now = Date.now()): Promise<JobPortPage<JobPortFinding>> {
  return jobPortFindingsPage((await keptCheck(db, jobId, now)).check, jobPortFindingsQuerySchema.parse(input));
}
