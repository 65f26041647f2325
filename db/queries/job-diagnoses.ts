import { desc, eq } from "drizzle-orm";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import { notFound } from "@/lib/errors";
import { diagnosisEvents } from "@/lib/jobs/diagnosis-events";
import { faultDieKey } from "@/lib/jobs/placement";
import type { Database, DatabaseHandle } from "../client";
import { jobDiagnoses } from "../schema";
import type { JobDiagnosis } from "../schema/job/validation";
import { recordAudit, type AuditActor } from "./audit";
import { ingestFaultEvents } from "./faults";
import { getJob } from "./jobs";

type Row = typeof jobDiagnoses.$inferSelect;

function toDiagnosis(row: Row): JobDiagnosis {
  return {
    id: row.id,
    phase: row.phase,
    createdAt: row.createdAt.toISOString(),
    authorName: row.authorName,
    files: row.files,
    bytes: row.bytes,
    suspects: row.report.suspects.length,
    report: row.report,
    faultEventIds: row.faultEventIds,
  };
}

/**
 * Stores a diagnosis of a job, and its suspects as fault events of kind hccl-error through the fault ingestion
 * (stable ids: running it again with more logs adds a diagnosis but no event twice). The events are dated at the
 * job's end, or now while it runs. Both the ingestion and the diagnosis are audited.
 */
export async function storeDiagnosis(
  handle: DatabaseHandle,
  jobId: number,
  report: DiagnosisReport,
  input: { files: number; bytes: number },
  actor: AuditActor,
  now = Date.now(),
): Promise<JobDiagnosis> {
  const job = await getJob(handle.db, jobId);
  if (!job) throw notFound(`there is no job ${jobId}`);
  const at = job.endedAt ? Date.parse(job.endedAt) : now;
  const ranks = job.ranks.map((r) => ({ rank: r.rank, deviceIp: r.deviceIp, hostIp: r.hostIp, dieKey: r.dieId === null ? null : faultDieKey(r.dieId) }));
  const { events, unplaced } = diagnosisEvents(report, { id: job.id, cluster: job.cluster.slug, name: job.name, at }, ranks);
  const ingested = events.length ? await ingestFaultEvents(handle, events, { atomic: "item", actor, now }) : null;
  const eventIds = ingested ? ingested.items.flatMap((item) => (item.id ? [item.id] : [])) : [];
  const row = await handle.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(jobDiagnoses)
      .values({ jobId, phase: report.phase, report, files: input.files, bytes: input.bytes, faultEventIds: eventIds, authorType: actor.type, authorName: actor.name ?? null })
      .returning();
    await recordAudit(tx, {
      actor,
      action: "job.diagnose",
      target: { type: "job", id: jobId },
      details: { diagnosis: created!.id, phase: report.phase, suspects: report.suspects.length, files: input.files, bytes: input.bytes, faultEvents: eventIds.length, unplacedSuspects: unplaced },
    });
    return created!;
  });
  return toDiagnosis(row);
}

/** A job's diagnoses, newest first. */
export async function listDiagnoses(db: Database, jobId: number): Promise<JobDiagnosis[]> {
  const rows = await db.select().from(jobDiagnoses).where(eq(jobDiagnoses.jobId, jobId)).orderBy(desc(jobDiagnoses.createdAt), desc(jobDiagnoses.id));
  return rows.map(toDiagnosis);
}
