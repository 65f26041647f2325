import { z } from "zod";
import { fetchJson } from "@/components/primitives/fetch-json";
import { gzipJsonAccept } from "@/lib/gzip-answer";
import type { DeviceInfoResult, FaultSettings, FaultStatistics, TimelineResult } from "@/lib/faults/api-types";
import type { FaultReport } from "@/lib/faults/report";
import { reportApiUrl } from "@/lib/faults/report-url";
import type { FaultSettingsInput } from "@/db/schema/fault-event/validation";

export type { FaultSettings, FaultStatistics, TimelineEvent, TimelineResult } from "@/lib/faults/api-types";

// The API's answers are the server's own types: trusted here, checked by the integration tests.
const timelineSchema = z.custom<TimelineResult>((v) => typeof v === "object" && v !== null && "events" in v);
const statisticsSchema = z.custom<FaultStatistics>((v) => typeof v === "object" && v !== null && "byKind" in v);
const reportSchema = z.custom<FaultReport>((v) => typeof v === "object" && v !== null && "series" in v && "current" in v);

export interface TimelineFilters {
  cluster: string;
  from: number;
  to: number;
  kind: string[];
  level: string[];
  code?: string | undefined;
  target?: string | undefined;
  state: "all" | "open" | "closed";
  /** A job's id: its events (those naming it, or hitting its dies while it ran). */
  job?: number | undefined;
}

export const faultKeys = {
  all: ["faults"] as const,
  timeline: (f: TimelineFilters) => ["faults", "timeline", f] as const,
  statistics: (cluster: string, from: number, to: number) => ["faults", "statistics", cluster, from, to] as const,
  report: (cluster: string, from: number, to: number, compare: boolean) => ["faults", "report", cluster, from, to, compare] as const,
  health: (cluster: string) => ["faults", "health", cluster] as const,
  settings: (cluster: string) => ["faults", "settings", cluster] as const,
  inbox: ["faults", "inbox"] as const,
};

export function fetchTimeline(f: TimelineFilters, signal?: AbortSignal): Promise<TimelineResult> {
  const params = new URLSearchParams({ cluster: f.cluster, from: String(f.from), to: String(f.to), state: f.state });
  if (f.kind.length) params.set("kind", f.kind.join(","));
  if (f.level.length) params.set("level", f.level.join(","));
  if (f.code) params.set("code", f.code);
  if (f.target) params.set("target", f.target);
  if (f.job) params.set("job", String(f.job));
  // A day's timeline is megabytes of JSON: asked as the gzip the server made once for every viewer (lib/gzip-answer.ts).
  return fetchJson(`/api/v1/fault-events?${params}`, timelineSchema, { signal, headers: { accept: gzipJsonAccept } });
}

export function fetchStatistics(cluster: string, from: number, to: number, signal?: AbortSignal): Promise<FaultStatistics> {
  const params = new URLSearchParams({ cluster, from: String(from), to: String(to) });
  return fetchJson(`/api/v1/fault-events/stats?${params}`, statisticsSchema, { signal, headers: { accept: gzipJsonAccept } });
}

export function fetchReport(cluster: string, from: number, to: number, compare: boolean, signal?: AbortSignal): Promise<FaultReport> {
  return fetchJson(reportApiUrl(cluster, from, to, compare), reportSchema, { signal });
}

/** GET /api/v1/fault-events/inbox: the batches posted with `Prefer: respond-async` and not judged yet, on every cluster. */
const inboxBacklogSchema = z.object({
  batches: z.number(),
  events: z.number(),
  oldestReceivedAt: z.string().nullable(),
  oldestAgeMs: z.number().nullable(),
  maxEvents: z.number(),
});
export type InboxBacklog = z.infer<typeof inboxBacklogSchema>;

export function fetchInboxBacklog(signal?: AbortSignal): Promise<InboxBacklog> {
  return fetchJson("/api/v1/fault-events/inbox", inboxBacklogSchema, { signal });
}

/** The device-info endpoint's answer (the shape the server writes). */
export type DeviceInfoAnswer = DeviceInfoResult;

export function postDeviceInfo(cluster: string, node: string | undefined, text: string): Promise<DeviceInfoAnswer> {
  const params = new URLSearchParams({ cluster });
  if (node) params.set("node", node);
  return fetchJson(`/api/v1/fault-events/device-info?${params}`, z.custom<DeviceInfoAnswer>(), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: text,
  });
}

const settingsSchema = z.custom<FaultSettings>((v) => typeof v === "object" && v !== null && "escalation" in v && "version" in v);
const settingsUrl = (cluster: string) => `/api/v1/fault-events/settings?${new URLSearchParams({ cluster })}`;

export function fetchFaultSettings(cluster: string, signal?: AbortSignal): Promise<FaultSettings> {
  return fetchJson(settingsUrl(cluster), settingsSchema, { signal });
}

/** Saves from `version` (If-Match): someone else's save in between answers 409 settings_conflict with details.current. */
export function saveFaultSettings(cluster: string, version: string, input: FaultSettingsInput): Promise<FaultSettings> {
  return fetchJson(settingsUrl(cluster), settingsSchema, {
    method: "PUT",
    headers: { "content-type": "application/json", "if-match": `"${version}"` },
    body: JSON.stringify(input),
  });
}
