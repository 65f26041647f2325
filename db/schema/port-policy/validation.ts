import { z } from "zod";

const jobRef = z.union([z.string().trim().min(1).max(300), z.number().int().positive()]);

/** POST /api/v1/clusters/{id}/ports/plan: running jobs to move, failovers (job + moved ranks), one job's view, apply. */
export const planBodySchema = z.strictObject({
  move: z.array(jobRef).max(10_000).optional(),
  failover: z.array(z.strictObject({ job: jobRef, ranks: z.array(z.number().int().min(0)).min(1).max(100_000) })).max(1000).optional(),
  job: jobRef.optional(),
  apply: z.boolean().default(false),
});
export type PlanBody = z.infer<typeof planBodySchema>;
