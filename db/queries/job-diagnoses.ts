import { desc, eq } from "drizzle-orm";
import { networkKinds } from "@/lib/faults/model";
import { cqeNics, withLinkHistory, type DiagnosisReport, type LinkDownEvent, type LinkHistory, type NicEnd } from "@/lib/hccl-diagnose";
import { notFound } from "@/lib/errors";
import { diagnosisEvents, dieOf, type JobRankPlace } from "@/lib/jobs/diagnosis-events";
import { faultDieKey } from "@/lib/jobs/placement";
import type { Database, DatabaseHandle } from "../client";
import { jobDiagnoses } from "../schema";
import type { JobDetail, JobDiagnosis } from "../schema/job/validation";
import { recordAudit, type AuditActor } from "./audit";
import { faultsOnDies, ingestFaultEvents } from "./faults";
import { getJob } from "./jobs";

type Row = typeof jobDiagnoses.$inferSelect;

const minute = 60_000;
/** A NIC's network faults count from an hour before the job started (a link that flapped just before still matters)
 *  to ten minutes after it ended; a job that never recorded its start is looked at over the day before its end. */
const HISTORY_BEFORE = 60 * minute;
const HISTORY_AFTER = 10 * minute;
const HISTORY_UNSTARTED = 24 * 60 * minute;
/** Events read at most for the NICs of one diagnosis, oldest first. */
const HISTORY_LIMIT = 500;

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
 * The network fault events (link down, lanes faulty, gateway probe failures: lib/faults/model.ts networkKinds) of
 * error-CQE NICs around the job's run: on each NIC's die (placed through the job's ranks) and on links at it.
 */
async function linkHistoryOf(handle: DatabaseHandle, job: JobDetail, ranks: readonly JobRankPlace[], nics: readonly NicEnd[], now: number): Promise<LinkHistory> {
  const end = job.endedAt ? Date.parse(job.endedAt) : now;
  const from = (job.startedAt ? Date.parse(job.startedAt) : end - HISTORY_UNSTARTED) - HISTORY_BEFORE;
  const to = end + HISTORY_AFTER;
  const nicsOfDie = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const nic of nics) {
    const die = dieOf({ rank: nic.rank, serverId: nic.server, deviceId: nic.deviceId, deviceIp: nic.deviceIp }, ranks);
    if (!die) {
      unplaced.push(nic.deviceIp);
      continue;
    }
    const key = `${die.server}/${die.die}`;
    nicsOfDie.set(key, [...(nicsOfDie.get(key) ?? []), nic.deviceIp]);
  }
  const dies = [...nicsOfDie.keys()];
  const found = await faultsOnDies(handle.pool, job.cluster.id, dies, networkKinds, from, to, HISTORY_LIMIT);
  const events: LinkDownEvent[] = [];
  for (const event of found) {
    const ends = event.targetKind === "die" ? [event.targetKey.slice("die:".length)] : event.targetKind === "link" ? event.targetKey.slice("link:".length).split("~") : [];
    for (const die of ends) {
      for (const nic of nicsOfDie.get(die) ?? []) {
        events.push({
          id: event.id,
          nic,
          die,
          target: event.targetKind === "die" ? "die" : "link",
          kind: event.kind,
          code: event.code,
          level: event.level,
          beganAt: new Date(event.beganAt).toISOString(),
          endedAt: event.endedAt === null ? null : new Date(event.endedAt).toISOString(),
        });
      }
    }
  }
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), events, unplaced };
}

/**
 * Stores a diagnosis of a job, and its suspects as fault events of kind hccl-error through the fault ingestion
 * (stable ids: running it again with more logs adds a diagnosis but no event twice). The events are dated at the
 * job's end, or now while it runs. An error CQE's suspects get the link-down history of their two NICs first
 * (lib/hccl-diagnose/link-history.ts). Both the ingestion and the diagnosis are audited.
 */
export async function storeDiagnosis(
  handle: DatabaseHandle,
  jobId: number,
  logged: DiagnosisReport,
  input: { files: number; bytes: number },
  actor: AuditActor,
  now = Date.now(),
): Promise<JobDiagnosis> {
  const job = await getJob(handle.db, jobId);
  if (!job) throw notFound(`there is no job ${jobId}`);
  const at = job.endedAt ? Date.parse(job.endedAt) : now;
  const ranks: JobRankPlace[] = job.ranks.map((r) => ({ rank: r.rank, deviceIp: r.deviceIp, hostIp: r.hostIp, dieKey: r.dieId === null ? null : faultDieKey(r.dieId) }));
  const nics = cqeNics(logged);
  const report = nics.length > 0 ? withLinkHistory(logged, await linkHistoryOf(handle, job, ranks, nics, now)) : logged;
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
