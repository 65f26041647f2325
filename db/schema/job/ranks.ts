import { z } from "zod";
import type { TopologyLevel } from "@/lib/topology/model";
import type { JobListItem, JobRankInfo } from "./validation";

/**
 * A job's ranks are paged on the server (issue 21: a job on 100,000 ranks sent every rank in one answer and drew
 * every row in the browser). `GET /api/v1/jobs/{id}/ranks`: filtered, searched, sorted and paged in PostgreSQL.
 */
export const jobRankSorts = ["problems", "position", "rank", "server", "device"] as const;
export type JobRankSort = (typeof jobRankSorts)[number];
export const jobRankStates = ["all", "placed", "unmatched", "ip-differs"] as const;
export type JobRankState = (typeof jobRankStates)[number];

/** The most ranks one page carries: a page is what a table shows, not an export. */
export const JOB_RANKS_PAGE_MAX = 500;
export const JOB_RANKS_PAGE_DEFAULT = 50;

export const jobRanksQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(JOB_RANKS_PAGE_MAX).default(JOB_RANKS_PAGE_DEFAULT),
  /** `problems` (the default): ranks that matched no die first, then by rank, as the page always listed them. */
  sort: z.enum(jobRankSorts).default("problems"),
  order: z.enum(["asc", "desc"]).default("asc"),
  state: z.enum(jobRankStates).default("all"),
  /** The table's server_id, exactly. */
  server: z.string().trim().min(1).max(200).optional(),
  /** The super pod (its `super_pod_id`) of the die a rank landed on. */
  pod: z.string().trim().min(1).max(200).optional(),
  /** A rank number, or a part of a server id, device IP or die. */
  q: z.string().trim().max(200).optional(),
});
export type JobRanksQuery = z.infer<typeof jobRanksQuerySchema>;
export type JobRanksQueryInput = z.input<typeof jobRanksQuerySchema>;

export interface JobRanksPage {
  /** Ranks that pass the filters, on every page. */
  total: number;
  offset: number;
  limit: number;
  items: JobRankInfo[];
}

/** Counts over all the job's ranks, whatever page is shown. */
export interface JobRankCounts {
  total: number;
  placed: number;
  unmatched: number;
  ipDiffers: number;
  /** Servers the table names (its server_list). */
  tableServers: number;
  byReason: { "no-rank": number; "unknown-server": number; "unknown-device": number };
}

/** Placed ranks per super pod of the inventory (`superPodId` null: servers outside any pod, AI Server mode). */
export interface JobPodCount {
  superPodId: string | null;
  ranks: number;
  servers: number;
}

/** The smallest topology view holding every die of the job: its server, its super pod, or the cluster. */
export interface JobScope {
  level: TopologyLevel;
  id: string | null;
  /**
   * Whether that view draws super pods as aggregates (a cluster of more servers than its view draws one by one): the
   * job page then asks for the view with the job's counts in each aggregate, at once, beside the job's dies.
   */
  aggregated: boolean;
}

/**
 * `GET /api/v1/jobs/{id}` and the job page's first data: the job, counts over its ranks and their first page, not
 * every rank nor its rank table's text (a 100,000-rank table is tens of MB).
 */
export interface JobSummary extends JobListItem {
  configVersion: string | null;
  labels: Record<string, string>;
  environment: Record<string, string>;
  /** Variables set on some ranks only, by rank number. */
  rankEnvironment: Record<string, Record<string, string>>;
  /** The stored rank table's size in bytes (its text is `GET /api/v1/jobs/{id}/rank-table`); null: none yet. */
  rankTableBytes: number | null;
  counts: JobRankCounts;
  pods: JobPodCount[];
  scope: JobScope;
  /** The first page of `GET /api/v1/jobs/{id}/ranks` with its defaults. */
  ranks: JobRanksPage;
}

/**
 * `GET /api/v1/jobs/{id}/dies`: the job's dies in its scope, for the topology overlay, as `[dieId, rank, deviceIp]`.
 * Bounded by the view: a server's or super pod's dies, or the cluster's when its view draws every server; when the
 * cluster view draws super pods as aggregates (more servers than it draws one by one) no die is drawn, so none is
 * sent (`aggregated`).
 */
export interface JobDies {
  scope: JobScope;
  /** The scope's `aggregated`, kept for the API's readers. */
  aggregated: boolean;
  dies: [dieId: string, rank: number | null, deviceIp: string | null][];
}
