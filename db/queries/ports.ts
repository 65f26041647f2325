/**
 * The port model of a cluster from the database: its live jobs (running, pending, unknown) with their ranks'
 * placement, environment and rank-table ports, its servers with their model, and its port policy; and applying a plan
 * (the jobs' port variables and rank tables written, audited).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { invalid, notFound } from "@/lib/errors";
import { patchRankTable, rankTablePorts } from "@/lib/ports/export";
import type { PortHost, PortJob } from "@/lib/ports/model";
import type { PortChange } from "@/lib/ports/planner";
import { defaultPortPolicy, portPolicySchema, type PortPolicy } from "@/lib/ports/policy";
import { portPlanReport, portReport, type ClusterPortPlan, type ClusterPortReport, type JobPortCheck } from "@/lib/ports/report";
import { topologyDieId } from "@/lib/jobs/placement";
import type { Database } from "../client";
import { clusterPortPolicies, dieKeyServerSql, jobRanks, jobs, servers } from "../schema";
import type { PlanBody } from "../schema/port-policy/validation";
import { recordAudit, type AuditActor } from "./audit";
import { getClusterOrThrow } from "./clusters";

export interface ClusterPortModel {
  cluster: { id: number; slug: string; name: string };
  jobs: PortJob[];
  /** Each job's namespace and rank table text, for exports and apply. */
  meta: Map<number, { namespace: string; rankTableText: string | null }>;
  hosts: PortHost[];
  policy: PortPolicy;
  policyStored: boolean;
}

const liveStates = ["running", "pending", "unknown"] as const;
const liveJob = (clusterId: number) => sql`${jobs.clusterId} = ${clusterId} and ${inArray(jobs.state, [...liveStates])}`;
/** A job_ranks row's host: its die key (`<server>/<device>`) without the device. */
const rankHost = sql.raw(dieKeyServerSql('"job_ranks"."die_key"'));

/**
 * The live jobs that share a host with job `near` (itself included): all a check of one job needs, since every port
 * conflict and shared die is on one host. Saves reading and parsing every rank table of the cluster on each job write.
 */
function jobsNear(clusterId: number, near: number) {
  return sql`${liveJob(clusterId)} and ${jobs.id} in (
    select distinct ${jobRanks.jobId} from ${jobRanks} where ${jobRanks.dieKey} is not null and ${rankHost} in (
      select ${rankHost} from ${jobRanks} where ${jobRanks.jobId} = ${near} and ${jobRanks.dieKey} is not null)
    union select ${near})`;
}

/** The cluster's live jobs, or with `near` only those sharing a host with that job. */
export async function loadClusterPorts(db: Database, idOrSlug: string, near?: number): Promise<ClusterPortModel> {
  const cluster = await getClusterOrThrow(db, idOrSlug);
  const [jobRows, hostRows, policyRows] = await Promise.all([
    db.select().from(jobs).where(near === undefined ? liveJob(cluster.id) : jobsNear(cluster.id, near)),
    db.select({ serverId: servers.serverId, model: servers.model }).from(servers).where(eq(servers.clusterId, cluster.id)),
    db.select().from(clusterPortPolicies).where(eq(clusterPortPolicies.clusterId, cluster.id)),
  ]);
  const rankRows = jobRows.length
    ? await db.select().from(jobRanks).where(inArray(jobRanks.jobId, jobRows.map((j) => j.id))).orderBy(jobRanks.jobId, jobRanks.position)
    : [];
  const ranksByJob = new Map<number, typeof rankRows>();
  for (const r of rankRows) {
    const list = ranksByJob.get(r.jobId);
    if (list) list.push(r);
    else ranksByJob.set(r.jobId, [r]);
  }
  const meta = new Map<number, { namespace: string; rankTableText: string | null }>();
  const portJobs = jobRows.map((j): PortJob => {
    meta.set(j.id, { namespace: j.namespace, rankTableText: j.rankTableText });
    const ports = j.rankTableText ? rankTablePorts(j.rankTableText) : [];
    return {
      id: j.id,
      name: j.namespace === "default" ? j.name : `${j.namespace}/${j.name}`,
      state: j.state,
      startedAt: j.startedAt?.getTime() ?? null,
      endedAt: j.endedAt?.getTime() ?? null,
      environment: j.environment,
      hasRankTable: j.rankTableText !== null,
      ranks: (ranksByJob.get(j.id) ?? []).map((r) => {
        const p = ports[r.position];
        const dieId = r.dieKey === null ? null : topologyDieId(r.dieKey);
        return {
          rank: r.rank,
          serverId: dieId === null ? null : dieId.slice(0, dieId.lastIndexOf("/")),
          dieId,
          deviceIp: r.deviceIp,
          devicePort: p?.devicePort ?? null,
          backupDevicePort: p?.backupDevicePort ?? null,
          backupDeviceIp: p?.backupDeviceIp ?? null,
          hostPort: p?.hostPort ?? null,
          environment: r.rank === null ? undefined : j.rankEnvironment[String(r.rank)],
        };
      }),
    };
  });
  const stored = policyRows[0]?.policy;
  return {
    cluster: { id: cluster.id, slug: cluster.slug, name: cluster.name },
    jobs: portJobs,
    meta,
    hosts: hostRows,
    policy: stored ? portPolicySchema.parse(stored) : defaultPortPolicy,
    policyStored: stored !== undefined,
  };
}

/** Stores a cluster's port policy (validated), audited with the policy before and after. */
export async function putPortPolicy(db: Database, idOrSlug: string, policy: PortPolicy, actor: AuditActor): Promise<PortPolicy> {
  const cluster = await getClusterOrThrow(db, idOrSlug);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(clusterPortPolicies).where(eq(clusterPortPolicies.clusterId, cluster.id)).for("update");
    await tx
      .insert(clusterPortPolicies)
      .values({ clusterId: cluster.id, policy })
      .onConflictDoUpdate({ target: clusterPortPolicies.clusterId, set: { policy, updatedAt: sql`now()` } });
    await recordAudit(tx, { actor, action: "cluster.port_policy", target: { type: "cluster", id: cluster.id }, before: before ? { policy: before.policy } : undefined, after: { policy } });
    return policy;
  });
}

/** The planned job's per-rank variables by rank number (a failover's per-host values land on the moved ranks). */
function rankEnvironmentOf(job: PortJob): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of job.ranks) if (r.rank !== null && r.environment && Object.keys(r.environment).length > 0) out[String(r.rank)] = r.environment;
  return out;
}

/**
 * Writes a plan: each changed job's job-wide port variables into its environment, its per-rank ones (a failover's
 * per-host values) into its rank environment, and its planned rank-table ports into its rank table text, one audit
 * record per job with the changes.
 */
export async function applyPortPlan(db: Database, model: ClusterPortModel, planned: readonly PortJob[], changes: readonly PortChange[], actor: AuditActor): Promise<number[]> {
  const changed = [...new Set(changes.map((c) => c.jobId))];
  await db.transaction(async (tx) => {
    for (const id of changed) {
      const job = planned.find((j) => j.id === id);
      const meta = model.meta.get(id);
      if (!job || !meta) throw notFound(`there is no job ${id}`);
      const [before] = await tx.select({ environment: jobs.environment, rankEnvironment: jobs.rankEnvironment }).from(jobs).where(eq(jobs.id, id)).for("update");
      if (!before) throw notFound(`there is no job ${id}`);
      const text = meta.rankTableText === null ? null : (patchRankTable(meta.rankTableText, job) ?? meta.rankTableText);
      const after = { environment: job.environment, rankEnvironment: rankEnvironmentOf(job) };
      await tx.update(jobs).set({ ...after, rankTableText: text, updatedAt: sql`now()` }).where(eq(jobs.id, id));
      const mine = changes.filter((c) => c.jobId === id).map(({ field, serverId, rank, from, to }) => ({ field, serverId, rank, from, to }));
      await recordAudit(tx, { actor, action: "job.ports_apply", target: { type: "job", id }, before: { ...before }, after, details: { changes: mine } });
    }
  });
  return changed;
}

/** A job of the model by id or name (`name` or `namespace/name`); an unknown one is a 422 naming it. */
function jobIdIn(model: ClusterPortModel, ref: string | number): number {
  const found = model.jobs.find((j) => (typeof ref === "number" ? j.id === ref : j.name === ref || String(j.id) === ref));
  if (!found) throw invalid(`cluster ${model.cluster.slug} has no live job ${ref}`, { code: "unknown_job" });
  return found.id;
}

/** A live job of the cluster by id or name (`name` in the default namespace, else `namespace/name`); 422 when none. */
async function liveJobId(db: Database, cluster: { id: number; slug: string }, ref: string): Promise<number> {
  const byId = /^\d{1,9}$/.test(ref) ? sql` or ${jobs.id} = ${Number(ref)}` : sql``;
  const [found] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(sql`${liveJob(cluster.id)} and ((${jobs.namespace} = 'default' and ${jobs.name} = ${ref}) or ${jobs.namespace} || '/' || ${jobs.name} = ${ref}${byId})`)
    .orderBy(jobs.id)
    .limit(1);
  if (!found) throw invalid(`cluster ${cluster.slug} has no live job ${ref}`, { code: "unknown_job" });
  return found.id;
}

/**
 * The ports view of a cluster (API, CLI, page): the host map and the findings; of one job (its hosts and the jobs
 * sharing them), when asked.
 */
export async function clusterPortReport(db: Database, cluster: string, job?: string, now = Date.now()): Promise<ClusterPortReport> {
  const ref = await getClusterOrThrow(db, cluster);
  const onlyJob = job === undefined ? undefined : await liveJobId(db, ref, job);
  const model = await loadClusterPorts(db, String(ref.id), onlyJob);
  return { cluster: model.cluster, policyStored: model.policyStored, ...portReport(model.jobs, model.hosts, model.policy, now, onlyJob) };
}

/**
 * The automatic check of one job after it is created or changes (jobs API, rings-config posts): its ports per host
 * and its findings against the jobs that share its hosts; nothing for a job that has ended.
 */
export async function jobPortCheck(db: Database, jobId: number, now = Date.now()): Promise<JobPortCheck> {
  const [row] = await db.select({ clusterId: jobs.clusterId, state: jobs.state }).from(jobs).where(eq(jobs.id, jobId));
  if (!row || !(liveStates as readonly string[]).includes(row.state)) {
    return { hosts: [], findings: [], summary: { jobs: 1, hosts: 0, bindings: 0, errors: 0, warnings: 0 } };
  }
  const model = await loadClusterPorts(db, String(row.clusterId), jobId);
  const { hosts, findings, summary } = portReport(model.jobs, model.hosts, model.policy, now, jobId);
  return { hosts, findings, summary };
}

/** A plan of the cluster's live jobs; with `apply`, written (needs an actor). */
export async function clusterPortPlan(db: Database, cluster: string, body: PlanBody, actor: AuditActor, now = Date.now()): Promise<ClusterPortPlan> {
  const model = await loadClusterPorts(db, cluster);
  const request = {
    move: body.move?.map((m) => jobIdIn(model, m)),
    failover: body.failover?.map((f) => ({ jobId: jobIdIn(model, f.job), ranks: f.ranks })),
    onlyJob: body.job === undefined ? undefined : jobIdIn(model, body.job),
  };
  const { planned, ...report } = portPlanReport(model.jobs, model.hosts, model.policy, now, request, model.meta);
  const applied = body.apply ? await applyPortPlan(db, model, planned, report.changes, actor) : [];
  return { cluster: model.cluster, dryRun: !body.apply, applied, ...report };
}
