import { z } from "zod";
import { fetchJson } from "@/components/primitives/fetch-json";
import type { AffinityCheck } from "@/lib/affinity/check";
import type { JobAffinityView } from "@/lib/affinity/job-plan";
import type { LayoutReading } from "@/lib/affinity/layout";
import type { AffinityPlan } from "@/lib/affinity/plan";

// Loose objects: the parts checked here are required, the rest of the lib's result passes through untouched.
const readingSchema = z.looseObject({
  layout: z.looseObject({ numaNodes: z.array(z.object({ id: z.number(), cpus: z.array(z.number()) })), onlineCpus: z.array(z.number()), npus: z.array(z.unknown()) }),
  lscpu: z.looseObject({ unknownLines: z.array(z.unknown()), problems: z.array(z.unknown()) }),
});
// The lib's result types are the contract; the schemas check the parts the page relies on.
const checkResponse = readingSchema
  .extend({ check: z.looseObject({ value: z.string(), findings: z.array(z.unknown()), bindings: z.array(z.unknown()) }) })
  .transform((body) => body as unknown as LayoutReading & { check: AffinityCheck });
const planResponse = readingSchema
  .extend({ plan: z.looseObject({ value: z.string(), env: z.string(), ranges: z.array(z.unknown()) }) })
  .transform((body) => body as unknown as LayoutReading & { plan: AffinityPlan });

export type CheckResponse = z.output<typeof checkResponse>;
export type PlanResponse = z.output<typeof planResponse>;

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export interface LayoutTexts {
  lscpu: string;
  topo?: string;
}

export const checkValue = (body: LayoutTexts & { value: string; jobNpus?: number[]; visibleDevices?: string }) =>
  fetchJson("/api/v1/affinity/check", checkResponse, post(body));

export const planValue = (body: LayoutTexts & { npus: number[]; processes?: number; reserve?: number; mode?: 1 | 2 }) =>
  fetchJson("/api/v1/affinity/plan", planResponse, post(body));

/** One key per resource: a server's stored layout, a cluster's servers with their layout state, a job's binding. */
export const affinityKeys = {
  serverLayout: (cluster: string, serverId: string) => ["clusters", cluster, "servers", serverId, "cpu-layout"] as const,
  clusterLayouts: (cluster: string) => ["clusters", cluster, "cpu-layouts"] as const,
  job: (id: number, options: { reserve: number; mode: 1 | 2 }) => ["jobs", id, "affinity", options] as const,
};

const layoutShape = z.looseObject({
  numaNodes: z.array(z.object({ id: z.number(), cpus: z.array(z.number()) })),
  onlineCpus: z.array(z.number()),
  npus: z.array(z.looseObject({ id: z.number(), numaNode: z.number().nullable() })),
});
const storedSchema = z.object({
  serverId: z.string(),
  model: z.string(),
  layout: layoutShape.nullable(),
  lscpuText: z.string().nullable(),
  topoText: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type StoredLayout = z.output<typeof storedSchema>;

const serverPath = (cluster: string, serverId: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/servers/${encodeURIComponent(serverId)}/cpu-layout`;

export const fetchServerLayout = (cluster: string, serverId: string, signal?: AbortSignal) => fetchJson(serverPath(cluster, serverId), storedSchema, { signal });

export const saveServerLayout = (cluster: string, serverId: string, body: LayoutTexts & { scope: "server" | "model" }) =>
  fetchJson(serverPath(cluster, serverId), z.looseObject({ serverIds: z.array(z.string()) }), { ...post(body), method: "PUT" });

const clusterLayoutsSchema = z.object({
  cluster: z.string(),
  servers: z.array(z.object({ serverId: z.string(), model: z.string(), stored: z.boolean(), updatedAt: z.string().nullable() })),
});

export const fetchClusterLayouts = (cluster: string, signal?: AbortSignal) =>
  fetchJson(`/api/v1/clusters/${encodeURIComponent(cluster)}/cpu-layouts`, clusterLayoutsSchema, { signal });

const jobAffinitySchema = z
  .looseObject({ jobId: z.number(), cluster: z.string(), groups: z.array(z.looseObject({ key: z.string() })), withoutLayout: z.array(z.unknown()), env: z.string() })
  .transform((body) => body as unknown as JobAffinityView);

export const fetchJobAffinity = (id: number, options: { reserve: number; mode: 1 | 2 }, signal?: AbortSignal) =>
  fetchJson(`/api/v1/jobs/${id}/affinity?reserve=${options.reserve}&mode=${options.mode}`, jobAffinitySchema, { signal });
