import { z } from "zod";
import { portCodes, type PortCode } from "@/lib/ports/findings";
import { portSources } from "@/lib/ports/model";

export type { JobPortBinding, JobPortCodeCount, JobPortFinding, JobPortPage, JobPortSummary } from "@/lib/ports/job-view";

/**
 * A job's port check, bounded (issue 21: the job page of a 17,000-rank job fetched every binding of the job, 4.6 MB).
 * `GET /api/v1/jobs/{id}/ports` answers counts; its bindings and findings come a page at a time, filtered on the
 * server, from `…/ports/bindings` and `…/ports/findings`.
 */
export const JOB_PORTS_PAGE_MAX = 500;
export const JOB_PORTS_PAGE_DEFAULT = 20;

const page = {
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(JOB_PORTS_PAGE_MAX).default(JOB_PORTS_PAGE_DEFAULT),
};

export const jobPortBindingsQuerySchema = z.object({
  ...page,
  /** A part of the host's server id. */
  host: z.string().trim().max(200).optional(),
  /** Only the bindings in conflict (`true`) or only the free ones (`false`). */
  conflict: z.enum(["true", "false"]).optional(),
  source: z.enum(portSources).optional(),
});
export type JobPortBindingsQuery = z.infer<typeof jobPortBindingsQuerySchema>;
export type JobPortBindingsQueryInput = z.input<typeof jobPortBindingsQuerySchema>;

export const jobPortFindingsQuerySchema = z.object({
  ...page,
  code: z.enum(Object.keys(portCodes) as [PortCode, ...PortCode[]]).optional(),
  severity: z.enum(["error", "warning"]).optional(),
});
export type JobPortFindingsQuery = z.infer<typeof jobPortFindingsQuerySchema>;
export type JobPortFindingsQueryInput = z.input<typeof jobPortFindingsQuerySchema>;
