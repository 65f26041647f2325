/**
 * What the API, the CLI and the page show: the host × port map (who holds what, conflicts marked) with the findings,
 * and a plan with its exports, optionally narrowed to one job.
 */
import { checkPorts } from "./check";
import { envLines, patchRankTable, planConfigMap, planDiff } from "./export";
import type { PortFinding } from "./findings";
import type { PortBinding, PortHost, PortJob } from "./model";
import { planPorts, type PortChange } from "./planner";
import type { PortPolicy } from "./policy";

export interface PortHostRow {
  serverId: string;
  model: string | null;
  bindings: (PortBinding & { conflict: boolean })[];
}

export interface PortReport {
  policy: PortPolicy;
  hosts: PortHostRow[];
  findings: PortFinding[];
  summary: { jobs: number; hosts: number; bindings: number; errors: number; warnings: number };
}

/** One job's part of the report: what the jobs API answers after a write and the job page shows. */
export type JobPortCheck = Pick<PortReport, "hosts" | "findings" | "summary">;

const involves = (f: PortFinding, jobId: number) => f.parties.some((p) => p.jobId === jobId);

export function portReport(jobs: readonly PortJob[], hosts: readonly PortHost[], policy: PortPolicy, now: number, onlyJob?: number): PortReport {
  const { bindings, findings: all } = checkPorts({ jobs, hosts, policy, now });
  const findings = onlyJob === undefined ? all : all.filter((f) => involves(f, onlyJob));
  const conflicted = new Set<string>();
  for (const f of all) {
    if (f.code !== "PT001") continue;
    for (const p of f.parties) for (const s of f.servers) conflicted.add(`${s}|${p.jobId}|${p.source}`);
  }
  const byHost = new Map<string, PortHostRow>(hosts.map((h) => [h.serverId, { serverId: h.serverId, model: h.model, bindings: [] }]));
  for (const b of bindings) {
    if (onlyJob !== undefined && b.jobId !== onlyJob) continue;
    let row = byHost.get(b.serverId);
    if (!row) byHost.set(b.serverId, (row = { serverId: b.serverId, model: null, bindings: [] }));
    row.bindings.push({ ...b, conflict: conflicted.has(`${b.serverId}|${b.jobId}|${b.source}`) });
  }
  const rows = [...byHost.values()].filter((r) => r.bindings.length > 0 || onlyJob === undefined);
  for (const r of rows) r.bindings.sort((a, b) => a.ports.from - b.ports.from);
  return {
    policy,
    hosts: rows.sort((a, b) => a.serverId.localeCompare(b.serverId)),
    findings,
    summary: {
      jobs: onlyJob === undefined ? jobs.length : 1,
      hosts: rows.filter((r) => r.bindings.length > 0).length,
      bindings: rows.reduce((n, r) => n + r.bindings.length, 0),
      errors: findings.filter((f) => f.severity === "error").length,
      warnings: findings.filter((f) => f.severity === "warning").length,
    },
  };
}

export interface PlannedJobExport {
  id: number;
  name: string;
  env: string;
  /** The patched rank table (canonical) and its ConfigMap, for jobs with a rank table whose ports changed. */
  rankTable: string | null;
  configMap: string | null;
}

export interface PortPlanReport {
  changes: PortChange[];
  diff: { en: string; zh: string };
  findings: PortFinding[];
  jobs: PlannedJobExport[];
  planned: PortJob[];
}

export interface PlanRequest {
  move?: readonly number[];
  failover?: readonly { jobId: number; ranks: readonly number[] }[];
  onlyJob?: number;
}

export function portPlanReport(
  jobs: readonly PortJob[],
  hosts: readonly PortHost[],
  policy: PortPolicy,
  now: number,
  request: PlanRequest,
  meta: ReadonlyMap<number, { namespace: string; rankTableText: string | null }>,
): PortPlanReport {
  const plan = planPorts({ jobs, hosts, policy, now, move: request.move, failover: request.failover });
  const keep = (id: number) => request.onlyJob === undefined || request.onlyJob === id;
  const changes = plan.changes.filter((c) => keep(c.jobId));
  const changedJobs = new Set(changes.map((c) => c.jobId));
  const exports = plan.jobs
    .filter((j) => keep(j.id) && (changedJobs.has(j.id) || request.onlyJob === j.id))
    .map((j): PlannedJobExport => {
      const info = meta.get(j.id);
      const rankTableChanged = changes.some((c) => c.jobId === j.id && c.rank !== null);
      const rankTable = rankTableChanged && info?.rankTableText ? patchRankTable(info.rankTableText, j) : null;
      return { id: j.id, name: j.name, env: envLines(j), rankTable, configMap: rankTable ? planConfigMap(rankTable, { name: j.name.split("/").at(-1)!, namespace: info?.namespace }) : null };
    });
  return {
    changes,
    diff: { en: planDiff(changes, "en"), zh: planDiff(changes, "zh") },
    findings: request.onlyJob === undefined ? plan.findings : plan.findings.filter((f) => involves(f, request.onlyJob!)),
    jobs: exports,
    planned: plan.jobs,
  };
}

/** GET /api/v1/clusters/{id}/ports: the report with its cluster and whether the policy is the cluster's own. */
export interface ClusterPortReport extends PortReport {
  cluster: { id: number; slug: string; name: string };
  policyStored: boolean;
}

/** POST /api/v1/clusters/{id}/ports/plan: the plan (without the planned jobs), dry run or applied. */
export interface ClusterPortPlan extends Omit<PortPlanReport, "planned"> {
  cluster: { id: number; slug: string; name: string };
  dryRun: boolean;
  /** The jobs written (ids) when applied. */
  applied: number[];
}
