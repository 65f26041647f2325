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
import { portPlanReport, portReport } from "@/lib/ports/report";
import { topologyDieId } from "@/lib/jobs/placement";
import type { Database } from "../client";
import { clusterPortPolicies, jobRanks, jobs, servers } from "../schema";
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

export async function loadClusterPorts(db: Database, idOrSlug: string): Promise<ClusterPortModel> {
  const cluster = await getClusterOrThrow(db, idOrSlug);
  const [jobRows, hostRows, policyRows] = await Promise.all([
    db.select().from(jobs).where(sql`${jobs.clusterId} = ${cluster.id} and ${inArray(jobs.state, [...liveStates])}`),
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

/**
 * Writes a plan: each changed job's job-wide port variables into its environment and its planned rank-table ports
 * into its rank table text, one audit record per job with the changes. Per-host values of a failover cannot live in
 * a job-wide environment: they are returned in the plan's env lines for the moved pods and are not written here.
 */
export async function applyPortPlan(db: Database, model: ClusterPortModel, planned: readonly PortJob[], changes: readonly PortChange[], actor: AuditActor): Promise<number[]> {
  const changed = [...new Set(changes.map((c) => c.jobId))];
  await db.transaction(async (tx) => {
    for (const id of changed) {
      const job = planned.find((j) => j.id === id);
      const meta = model.meta.get(id);
      if (!job || !meta) throw notFound(`there is no job ${id}`);
      const [before] = await tx.select({ environment: jobs.environment, rankTableText: jobs.rankTableText }).from(jobs).where(eq(jobs.id, id)).for("update");
      if (!before) throw notFound(`there is no job ${id}`);
      const text = meta.rankTableText === null ? null : (patchRankTable(meta.rankTableText, job) ?? meta.rankTableText);
      await tx.update(jobs).set({ environment: job.environment, rankTableText: text, updatedAt: sql`now()` }).where(eq(jobs.id, id));
      const mine = changes.filter((c) => c.jobId === id).map(({ field, serverId, rank, from, to }) => ({ field, serverId, rank, from, to }));
      await recordAudit(tx, { actor, action: "job.ports_apply", target: { type: "job", id }, before: { environment: before.environment }, after: { environment: job.environment }, details: { changes: mine } });
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

/** The ports view of a cluster (API, CLI, page): the host map and the findings, optionally of one job. */
export async function clusterPortReport(db: Database, cluster: string, job?: string, now = Date.now()) {
  const model = await loadClusterPorts(db, cluster);
  const onlyJob = job === undefined ? undefined : jobIdIn(model, job);
  return { cluster: model.cluster, policyStored: model.policyStored, ...portReport(model.jobs, model.hosts, model.policy, now, onlyJob) };
}

/** A plan of the cluster's live jobs; with `apply`, written (needs an actor). */
export async function clusterPortPlan(db: Database, cluster: string, body: PlanBody, actor: AuditActor, now = Date.now()) {
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
