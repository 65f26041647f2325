import { z } from "zod";
import { instantSchema } from "../fault-event/validation";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import type { JobSource, JobState, MatchKind, PlacementSummary, UnmatchedReason } from "@/lib/jobs/model";
import { jobNameMaxLength, jobStates, namespaceMaxLength } from "./constants";

const name = z.string().trim().min(1).max(jobNameMaxLength);
const namespace = z.string().trim().min(1).max(namespaceMaxLength);
const environment = z.union([z.record(z.string().max(200), z.string().max(10_000)), z.string().max(1_000_000)]);
/**
 * Per-rank variables, by rank number (`{"3": {"HCCL_NPU_SOCKET_PORT_RANGE": "16666-16667"}}`): what a launcher sets on
 * some processes only. Each value is an object or env-dump text like `environment`, and is filtered the same way.
 */
const rankEnvironment = z
  .record(z.string().regex(/^\d{1,6}$/, "a rank number"), environment)
  .refine((v) => Object.keys(v).length <= 16_384, "at most 16,384 ranks");

/**
 * POST /api/v1/jobs. The rank table is the text it brought (`rankTable`), or a saved table (`rankTableId`, its
 * current revision unless `rankTableRevision`): "track as a job". `environment` is an object or env-dump text; only
 * the variables that matter to HCCL are kept (lib/jobs/environment.ts).
 */
export const jobCreateSchema = z
  .strictObject({
    cluster: z.union([z.string().trim().min(1).max(200), z.number().int().positive()]).optional(),
    name: name.optional(),
    namespace: namespace.optional(),
    state: z.enum(jobStates).optional(),
    startedAt: instantSchema.nullish(),
    endedAt: instantSchema.nullish(),
    rankTable: z.string().min(1).optional(),
    rankTableId: z.number().int().positive().optional(),
    rankTableRevision: z.number().int().positive().optional(),
    environment: environment.optional(),
    rankEnvironment: rankEnvironment.optional(),
  })
  .refine((v) => v.rankTable === undefined || v.rankTableId === undefined, "send rankTable or rankTableId, not both")
  .refine((v) => v.name !== undefined || v.rankTableId !== undefined, "a job needs a name (or a saved rank table to name it after)");
export type JobCreate = z.infer<typeof jobCreateSchema>;

/**
 * PATCH /api/v1/jobs/{id}: what is known later about a job (its end, its state, its environment). `rankEnvironment`
 * replaces the stored per-rank variables as a whole (`{}` clears them).
 */
export const jobUpdateSchema = z
  .strictObject({
    state: z.enum(jobStates).optional(),
    startedAt: instantSchema.nullish(),
    endedAt: instantSchema.nullish(),
    environment: environment.optional(),
    rankEnvironment: rankEnvironment.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "nothing to change: send state, startedAt, endedAt, environment or rankEnvironment");
export type JobUpdate = z.infer<typeof jobUpdateSchema>;

export const jobListQuerySchema = z.object({ cluster: z.string().trim().min(1).max(200).optional() });

export interface JobDiagnosisInfo {
  id: number;
  phase: string;
  createdAt: string;
  authorName: string | null;
  files: number;
  bytes: number;
  suspects: number;
}

export interface JobListItem {
  id: number;
  cluster: { id: number; slug: string; name: string };
  name: string;
  namespace: string;
  state: JobState;
  source: JobSource;
  startedAt: string | null;
  endedAt: string | null;
  placement: PlacementSummary;
  rankTableId: number | null;
  rankTableRevision: number | null;
  rankTableStatus: string | null;
  createdAt: string;
  updatedAt: string;
  lastDiagnosis: JobDiagnosisInfo | null;
}

export interface JobRankInfo {
  rank: number | null;
  serverId: string | null;
  hostIp: string | null;
  deviceId: number | null;
  deviceIp: string | null;
  /** The topology's die id (`<server>/d<device>`), or null when unmatched. */
  dieId: string | null;
  match: MatchKind | null;
  unmatched: UnmatchedReason | null;
  deviceIpDiffers: boolean;
}

export interface JobDetail extends JobListItem {
  rankTableText: string | null;
  configVersion: string | null;
  labels: Record<string, string>;
  environment: Record<string, string>;
  /** Variables set on some ranks only, by rank number. */
  rankEnvironment: Record<string, Record<string, string>>;
  ranks: JobRankInfo[];
}

export interface JobDiagnosis extends JobDiagnosisInfo {
  report: DiagnosisReport;
  faultEventIds: string[];
}
