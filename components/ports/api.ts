import { z } from "zod";
import { fetchJson } from "@/components/primitives/fetch-json";
import type { PortPolicy } from "@/lib/ports/policy";
import type { ClusterPortPlan, ClusterPortReport } from "@/lib/ports/report";
import type { PlanBody } from "@/db/schema/port-policy/validation";

export type { ClusterPortPlan, ClusterPortReport };

// The API's answers are the server's own types: trusted here, checked by the integration tests.
const reportSchema = z.custom<ClusterPortReport>((v) => typeof v === "object" && v !== null && "hosts" in v && "findings" in v);
const planSchema = z.custom<ClusterPortPlan>((v) => typeof v === "object" && v !== null && "changes" in v);
const policySchema = z.custom<PortPolicy>((v) => typeof v === "object" && v !== null && "hcclHostRanges" in v);

/** One key per resource: the cluster's report (the page), one job's part of it (the job page). */
export const portKeys = {
  all: ["ports"] as const,
  report: (cluster: string) => ["ports", cluster] as const,
  job: (cluster: string, jobId: number) => ["ports", cluster, "job", jobId] as const,
};

const base = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/ports`;

export function fetchPortReport(cluster: string, signal?: AbortSignal): Promise<ClusterPortReport> {
  return fetchJson(base(cluster), reportSchema, { signal });
}

export function fetchJobPorts(cluster: string, jobId: number, signal?: AbortSignal): Promise<ClusterPortReport> {
  return fetchJson(`${base(cluster)}?${new URLSearchParams({ job: String(jobId) })}`, reportSchema, { signal });
}

export function postPortPlan(cluster: string, body: Partial<PlanBody>): Promise<ClusterPortPlan> {
  return fetchJson(`${base(cluster)}/plan`, planSchema, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

export function putPortPolicy(cluster: string, policy: PortPolicy): Promise<PortPolicy> {
  return fetchJson(`${base(cluster)}/policy`, policySchema, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(policy) });
}
