import { z } from "zod";
import { ApiRequestError, fetchJson } from "@/components/primitives/fetch-json";
import type { JobPortSummary } from "@/db/schema/job/ports";
import type { JobDies, JobRanksPage, JobRanksQuery, JobSummary } from "@/db/schema/job/ranks";
import type { JobCreate } from "@/db/schema/job/validation";
import type { JobDiagnosis, JobListItem } from "@/db/schema/job/validation";

export type { JobDies, JobDiagnosis, JobListItem, JobRanksPage, JobRanksQuery, JobSummary };

/** What a job write answers (POST, PATCH, rings-config): the job as `GET` has it, with its port check in counts. */
export type JobWritten = JobSummary & { ports: JobPortSummary };

// The API's answers are the server's own types: trusted here, checked by the integration tests.
const listSchema = z.custom<{ items: JobListItem[] }>((v) => typeof v === "object" && v !== null && "items" in v);
const detailSchema = z.custom<JobSummary>((v) => typeof v === "object" && v !== null && "ranks" in v && "counts" in v);
const writtenSchema = z.custom<JobWritten>((v) => detailSchema.safeParse(v).success && typeof (v as { ports?: unknown }).ports === "object");
const ranksSchema = z.custom<JobRanksPage>((v) => typeof v === "object" && v !== null && "items" in v && "total" in v);
const diesSchema = z.custom<JobDies>((v) => typeof v === "object" && v !== null && "dies" in v);
const diagnosesSchema = z.custom<{ items: JobDiagnosis[] }>((v) => typeof v === "object" && v !== null && "items" in v);

export const jobKeys = {
  all: ["jobs"] as const,
  list: (cluster: string | null) => ["jobs", "list", cluster] as const,
  detail: (id: number) => ["jobs", id] as const,
  /** One page of the job's ranks: every field of the query, defaults included, so one page has one key. */
  ranks: (id: number, query: JobRanksQuery) => ["jobs", id, "ranks", query] as const,
  dies: (id: number) => ["jobs", id, "dies"] as const,
  diagnoses: (id: number) => ["jobs", id, "diagnoses"] as const,
};

export async function fetchJobs(cluster: string | null, signal?: AbortSignal): Promise<JobListItem[]> {
  const query = cluster ? `?${new URLSearchParams({ cluster })}` : "";
  return (await fetchJson(`/api/v1/jobs${query}`, listSchema, { signal })).items;
}

export function fetchJob(id: number, signal?: AbortSignal): Promise<JobSummary> {
  return fetchJson(`/api/v1/jobs/${id}`, detailSchema, { signal });
}

export function fetchJobRanks(id: number, query: JobRanksQuery, signal?: AbortSignal): Promise<JobRanksPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  return fetchJson(`/api/v1/jobs/${id}/ranks?${params}`, ranksSchema, { signal });
}

export function fetchJobDies(id: number, signal?: AbortSignal): Promise<JobDies> {
  return fetchJson(`/api/v1/jobs/${id}/dies`, diesSchema, { signal });
}

export async function fetchDiagnoses(id: number, signal?: AbortSignal): Promise<JobDiagnosis[]> {
  return (await fetchJson(`/api/v1/jobs/${id}/diagnoses`, diagnosesSchema, { signal })).items;
}

export function createJob(input: JobCreate): Promise<JobWritten> {
  return fetchJson("/api/v1/jobs", writtenSchema, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
}

/**
 * Posts logs for a diagnosis as multipart/form-data, with upload progress and a way to cancel (XMLHttpRequest:
 * fetch reports no upload progress). Resolves with the stored diagnosis.
 */
export function postDiagnosis(id: number, form: FormData, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<JobDiagnosis> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/jobs/${id}/diagnoses`);
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as JobDiagnosis);
      else {
        const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
        reject(new ApiRequestError(xhr.status, error?.code ?? "http_error", error?.message ?? `the server answered ${xhr.status}`, error?.details));
      }
    };
    xhr.onerror = () => reject(new ApiRequestError(0, "network_error", "the upload failed: network error"));
    xhr.onabort = () => reject(new DOMException("cancelled", "AbortError"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
