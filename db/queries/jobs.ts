import { eq, sql } from "drizzle-orm";
import { conflict, invalid, notFound } from "@/lib/errors";
import { recordEnvironment, recordRankEnvironment } from "@/lib/jobs/environment";
import type { JobSource, JobState, PlacedRank, RankEntry } from "@/lib/jobs/model";
import { faultDieKey, placeRanks, summarizePlacement, topologyDieId, type InventoryDie } from "@/lib/jobs/placement";
import { rankEntries, rankTableStatus } from "@/lib/jobs/rank-entries";
import { toJobName } from "@/lib/rank-table-workspace/configmap";
import type { Database, DatabaseHandle } from "../client";
import { clusters, jobRanks, jobs } from "../schema";
import type { JobSummary } from "../schema/job/ranks";
import type { JobCreate, JobDetail, JobRankInfo, JobUpdate } from "../schema/job/validation";
import { analyzeWritten } from "./analyze-written";
import { recordAudit, type AuditActor } from "./audit";
import { findCluster } from "./clusters";
import { loadJobSummary } from "./job-ranks";
import { jobListColumns, toJobListItem } from "./jobs-list";
import { getRankTable } from "./rank-tables";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Executor = Database | Tx;

/** The dies of a cluster's inventory, for placement. */
async function inventoryDies(db: Executor, clusterId: number): Promise<InventoryDie[]> {
  const result = await db.execute<{ serverId: string; hostIp: string | null; deviceId: number; deviceIp: string | null }>(
    sql`select s.server_id as "serverId", host(s.host_ip) as "hostIp", d.device_id as "deviceId", host(d.device_ip) as "deviceIp"
        from devices d join servers s on s.id = d.server_ref where d.cluster_id = ${clusterId}`,
  );
  return result.rows;
}

/** Places a table's ranks on the cluster; a text that is not a rank table with servers places nothing. */
export async function placeTable(db: Executor, clusterId: number, tableText: string | null): Promise<PlacedRank[]> {
  return placeEntries(db, clusterId, tableText === null ? [] : (rankEntries(tableText) ?? []));
}

async function placeEntries(db: Executor, clusterId: number, entries: readonly RankEntry[]): Promise<PlacedRank[]> {
  return entries.length ? placeRanks(entries, await inventoryDies(db, clusterId)) : [];
}

/**
 * Creates a job on the ranks it was placed on, audited as `job.create` with its placement: the one insert shared by
 * jobs created through the API and jobs the Ascend Operator's rings-config ConfigMap announces.
 */
export async function insertPlacedJob(
  tx: Tx,
  row: Omit<typeof jobs.$inferInsert, "placement">,
  placed: PlacedRank[],
  actor: AuditActor,
  audit: { after: Record<string, unknown>; details?: Record<string, unknown> },
): Promise<number> {
  const placement = summarizePlacement(placed);
  const [created] = await tx
    .insert(jobs)
    .values({ ...row, placement })
    .returning({ id: jobs.id });
  await replaceRanks(tx, created!.id, placed);
  await recordAudit(tx, {
    actor,
    action: "job.create",
    target: { type: "job", id: created!.id },
    after: audit.after,
    details: { ...audit.details, placement },
  });
  return created!.id;
}

export async function replaceRanks(tx: Tx, jobId: number, placed: PlacedRank[]): Promise<void> {
  await tx.delete(jobRanks).where(eq(jobRanks.jobId, jobId));
  const rows = placed.map((p, position) => ({
    jobId,
    position,
    rank: p.rank,
    serverId: p.serverId,
    hostIp: p.hostIp,
    deviceId: p.deviceId,
    deviceIp: p.deviceIp,
    dieKey: p.dieId === null ? null : faultDieKey(p.dieId),
    match: p.match,
    unmatched: p.unmatched,
    deviceIpDiffers: p.deviceIpDiffers,
  }));
  // 11 parameters a row: chunks stay under PostgreSQL's 65,535 bind parameters.
  for (let i = 0; i < rows.length; i += 5000) await tx.insert(jobRanks).values(rows.slice(i, i + 5000));
  await analyzeWritten(tx, rows.length, "job_ranks");
}

const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: string }).code === "23505" || (error as { cause?: { code?: string } }).cause?.code === "23505";

export async function clusterOf(handle: DatabaseHandle, cluster: string | number | null | undefined) {
  if (cluster === undefined || cluster === null) throw invalid("a job needs its cluster (cluster: slug or id)", { code: "cluster_required" });
  const found = await findCluster(handle.db, String(cluster));
  if (!found) throw invalid(`there is no cluster ${cluster}`, { code: "unknown_cluster" });
  return found;
}

const runStates: readonly JobState[] = ["running", "succeeded", "failed"];
const endStates: readonly JobState[] = ["succeeded", "failed"];

/** Creates a job (API or "track as a job" from a saved rank table); 409 job_exists when the cluster has it in that namespace. */
export async function createJob(handle: DatabaseHandle, input: JobCreate, actor: AuditActor, now = Date.now()): Promise<JobSummary> {
  let text: string | null = input.rankTable ?? null;
  let source: JobSource = "api";
  let table: Awaited<ReturnType<typeof getRankTable>> | undefined;
  if (input.rankTableId !== undefined) {
    table = await getRankTable(handle.db, input.rankTableId, input.rankTableRevision);
    if (!table) throw invalid(`there is no rank table ${input.rankTableId}${input.rankTableRevision ? ` revision ${input.rankTableRevision}` : ""}`, { code: "unknown_rank_table" });
    if (table.largeText) throw invalid(`rank table ${input.rankTableId} is too large to be read as one text (${table.largeText.bytes} bytes)`, { code: "invalid_rank_table" });
    text = table.text;
    source = "rank-table";
  }
  // Read once: a 100,000-rank table is tens of MB of JSON.
  const entries = text === null ? [] : rankEntries(text);
  if (entries === null) throw invalid("the rank table is not JSON with a server_list (1.0, 1.2) or a rank_list (2.0)", { code: "invalid_rank_table" });
  const cluster = await clusterOf(handle, input.cluster ?? table?.clusterId);
  const state = input.state ?? "running";
  const startedAt = input.startedAt ?? (runStates.includes(state) ? now : null);
  const endedAt = input.endedAt ?? (endStates.includes(state) ? now : null);
  const environment = input.environment === undefined ? {} : recordEnvironment(input.environment).variables;
  const rankEnvironment = input.rankEnvironment === undefined ? {} : recordRankEnvironment(input.rankEnvironment);
  const name = input.name ?? toJobName(table!.name);
  const namespace = input.namespace ?? "default";
  const id = await handle.db
    .transaction(async (tx) => {
      const placed = await placeEntries(tx, cluster.id, entries);
      return insertPlacedJob(
        tx,
        {
          clusterId: cluster.id,
          name,
          namespace,
          state,
          source,
          startedAt: startedAt === null ? null : new Date(startedAt),
          endedAt: endedAt === null ? null : new Date(endedAt),
          rankTableId: table?.id ?? null,
          rankTableRevision: table?.revision ?? null,
          rankTableText: text,
          rankTableStatus: text === null ? null : rankTableStatus(text),
          environment,
          rankEnvironment,
        },
        placed,
        actor,
        { after: { cluster: cluster.slug, name, namespace, state, source, rankTableId: table?.id ?? null, rankTableRevision: table?.revision ?? null } },
      );
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw conflict(`cluster ${cluster.slug} already has job ${namespace}/${name}`, { code: "job_exists" });
      throw error;
    });
  return (await loadJobSummary(handle.db, id))!;
}

/** What is known later about a job: its state, start, end, environment. Audited with the fields that changed. */
export async function updateJob(handle: DatabaseHandle, id: number, input: JobUpdate, actor: AuditActor): Promise<JobSummary> {
  await handle.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ state: jobs.state, startedAt: jobs.startedAt, endedAt: jobs.endedAt, environment: jobs.environment, rankEnvironment: jobs.rankEnvironment })
      .from(jobs)
      .where(eq(jobs.id, id))
      .for("update");
    if (!before) throw notFound(`there is no job ${id}`);
    const after = {
      state: input.state ?? before.state,
      startedAt: input.startedAt === undefined ? before.startedAt : input.startedAt === null ? null : new Date(input.startedAt),
      endedAt: input.endedAt === undefined ? before.endedAt : input.endedAt === null ? null : new Date(input.endedAt),
      environment: input.environment === undefined ? before.environment : recordEnvironment(input.environment).variables,
      rankEnvironment: input.rankEnvironment === undefined ? before.rankEnvironment : recordRankEnvironment(input.rankEnvironment),
    };
    if (after.startedAt && after.endedAt && after.endedAt < after.startedAt) throw invalid("endedAt is before startedAt", { code: "ended_before_started" });
    await tx.update(jobs).set({ ...after, updatedAt: sql`now()` }).where(eq(jobs.id, id));
    await recordAudit(tx, { actor, action: "job.update", target: { type: "job", id }, before: { ...before }, after: { ...after } });
  });
  return (await loadJobSummary(handle.db, id))!;
}

export async function deleteJob(db: Database, id: number, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx.delete(jobs).where(eq(jobs.id, id)).returning({ name: jobs.name, namespace: jobs.namespace, state: jobs.state, clusterId: jobs.clusterId });
    if (!deleted) return false;
    await recordAudit(tx, { actor, action: "job.delete", target: { type: "job", id }, before: { ...deleted } });
    return true;
  });
}

/** Whether there is a job `id`: one row of one column, for answers that only need the job to exist. */
export async function jobExists(db: Database, id: number): Promise<boolean> {
  const [row] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, id));
  return row !== undefined;
}

/**
 * The whole job with every rank, for the server's own work on it (its CPU binding, a diagnosis): never an answer to
 * a browser or the API, which get `loadJobSummary` and pages of ranks (db/queries/job-ranks.ts).
 */
export async function getJob(db: Database, id: number): Promise<JobDetail | undefined> {
  const [row] = await db
    .select({ ...jobListColumns, rankTableText: jobs.rankTableText, configVersion: jobs.configVersion, labels: jobs.labels, environment: jobs.environment, rankEnvironment: jobs.rankEnvironment })
    .from(jobs)
    .innerJoin(clusters, eq(clusters.id, jobs.clusterId))
    .where(eq(jobs.id, id));
  if (!row) return undefined;
  const ranks = await db.select().from(jobRanks).where(eq(jobRanks.jobId, id)).orderBy(jobRanks.position);
  return {
    ...toJobListItem(row),
    rankTableText: row.rankTableText,
    configVersion: row.configVersion,
    labels: row.labels,
    environment: row.environment,
    rankEnvironment: row.rankEnvironment,
    ranks: ranks.map(
      (r): JobRankInfo => ({
        rank: r.rank,
        serverId: r.serverId,
        hostIp: r.hostIp,
        deviceId: r.deviceId,
        deviceIp: r.deviceIp,
        dieId: r.dieKey === null ? null : topologyDieId(r.dieKey),
        match: r.match,
        unmatched: r.unmatched,
        deviceIpDiffers: r.deviceIpDiffers,
      }),
    ),
  };
}
