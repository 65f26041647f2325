import { z } from "zod";
import { fetchJson } from "@/components/primitives/fetch-json";
import type { PortPolicy } from "@/lib/ports/policy";
import type { ClusterPortPlan, ClusterPortReport } from "@/lib/ports/report";
import type { PlanBody } from "@/db/schema/port-policy/validation";
import type { JobPortBinding, JobPortBindingsQuery, JobPortFinding, JobPortFindingsQuery, JobPortPage, JobPortSummary } from "@/db/schema/job/ports";

export type { ClusterPortPlan, ClusterPortReport, JobPortBinding, JobPortBindingsQuery, JobPortFinding, JobPortFindingsQuery, JobPortPage, JobPortSummary };

// The API's answers are the server's own types: trusted here, checked by the integration tests.
const reportSchema = z.custom<ClusterPortReport>((v) => typeof v === "object" && v !== null && "hosts" in v && "findings" in v);
const planSchema = z.custom<ClusterPortPlan>((v) => typeof v === "object" && v !== null && "changes" in v);
const jobSummarySchema = z.custom<JobPortSummary>((v) => typeof v === "object" && v !== null && "conflicts" in v && "byCode" in v);
const pageSchema = <T>() => z.custom<JobPortPage<T>>((v) => typeof v === "object" && v !== null && "items" in v && "total" in v);
const policySchema = z.custom<PortPolicy>((v) => typeof v === "object" && v !== null && "hcclHostRanges" in v);

/**
 * One key per resource: the cluster's report (the page); one job's check (the job page): its counts and each page of
 * its bindings and findings, under one prefix so a write to the job refreshes them all.
 */
export const portKeys = {
  all: ["ports"] as const,
  report: (cluster: string) => ["ports", cluster] as const,
  job: (cluster: string, jobId: number) => ["ports", cluster, "job", jobId] as const,
  jobBindings: (cluster: string, jobId: number, query: JobPortBindingsQuery) => ["ports", cluster, "job", jobId, "bindings", query] as const,
  jobFindings: (cluster: string, jobId: number, query: JobPortFindingsQuery) => ["ports", cluster, "job", jobId, "findings", query] as const,
};

const base = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/ports`;

export function fetchPortReport(cluster: string, signal?: AbortSignal): Promise<ClusterPortReport> {
  return fetchJson(base(cluster), reportSchema, { signal });
}

const jobBase = (jobId: number) => `/api/v1/jobs/${jobId}/ports`;
const paramsOf = (query: object) => new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (value === undefined || value === "" ? [] : [[key, String(value)]])));

export function fetchJobPortSummary(jobId: number, signal?: AbortSignal): Promise<JobPortSummary> {
  return fetchJson(jobBase(jobId), jobSummarySchema, { signal });
}

export function fetchJobPortBindings(jobId: number, query: JobPortBindingsQuery, signal?: AbortSignal): Promise<JobPortPage<JobPortBinding>> {
  return fetchJson(`${jobBase(jobId)}/bindings?${paramsOf(query)}`, pageSchema<JobPortBinding>(), { signal });
}

export function fetchJobPortFindings(jobId: number, query: JobPortFindingsQuery, signal?: AbortSignal): Promise<JobPortPage<JobPortFinding>> {
  return fetchJson(`${jobBase(jobId)}/findings?${paramsOf(query)}`, pageSchema<JobPortFinding>(), { signal });
}

export function postPortPlan(cluster: string, body: Partial<PlanBody>): Promise<ClusterPortPlan> {
  return fetchJson(`${base(cluster)}/plan`, planSchema, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

export function putPortPolicy(cluster: string, policy: PortPolicy): Promise<PortPolicy> {
  return fetchJson(`${base(cluster)}/policy`, policySchema, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(policy) });
}
