import "server-only";
import { z } from "zod";
import type { Database } from "@/db/client";
import type { AuditActor } from "@/db/queries/audit";
import { applyPortPlan, loadClusterPorts, type ClusterPortModel } from "@/db/queries/ports";
import { invalid } from "@/lib/errors";
import { portPlanReport, portReport } from "@/lib/ports/report";

const jobRef = z.union([z.string().trim().min(1).max(300), z.number().int().positive()]);

/** POST /api/v1/clusters/{id}/ports/plan: running jobs to move, failovers (job + moved ranks), apply (default false). */
export const planBodySchema = z.strictObject({
  move: z.array(jobRef).max(10_000).optional(),
  failover: z.array(z.strictObject({ job: jobRef, ranks: z.array(z.number().int().min(0)).min(1).max(100_000) })).max(1000).optional(),
  job: jobRef.optional(),
  apply: z.boolean().default(false),
});
export type PlanBody = z.infer<typeof planBodySchema>;

/** A job of the model by id or name (`name` or `namespace/name`); an unknown one is a 422 naming it. */
export function jobIdIn(model: ClusterPortModel, ref: string | number): number {
  const found = model.jobs.find((j) => (typeof ref === "number" ? j.id === ref : j.name === ref || String(j.id) === ref || j.name === `default/${ref}`));
  if (!found) throw invalid(`cluster ${model.cluster.slug} has no live job ${ref}`, { code: "unknown_job" });
  return found.id;
}

export async function clusterPortReport(db: Database, cluster: string, job?: string, now = Date.now()) {
  const model = await loadClusterPorts(db, cluster);
  const onlyJob = job === undefined ? undefined : jobIdIn(model, job);
  return { cluster: model.cluster, policyStored: model.policyStored, ...portReport(model.jobs, model.hosts, model.policy, now, onlyJob) };
}

export async function clusterPortPlan(db: Database, cluster: string, body: PlanBody, actor: AuditActor | null, now = Date.now()) {
  const model = await loadClusterPorts(db, cluster);
  const request = {
    move: body.move?.map((m) => jobIdIn(model, m)),
    failover: body.failover?.map((f) => ({ jobId: jobIdIn(model, f.job), ranks: f.ranks })),
    onlyJob: body.job === undefined ? undefined : jobIdIn(model, body.job),
  };
  const { planned, ...report } = portPlanReport(model.jobs, model.hosts, model.policy, now, request, model.meta);
  let applied: number[] = [];
  if (body.apply) {
    if (!actor) throw invalid("applying a plan needs an actor");
    applied = await applyPortPlan(db, model, planned, report.changes, actor);
  }
  return { cluster: model.cluster, dryRun: !body.apply, applied, ...report };
}
