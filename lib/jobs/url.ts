import { z } from "zod";
import { jobStates } from "./model";

/** The job list's URL state: name filter, cluster (slug) and state. */
export const jobListSearchParams = z.object({
  q: z.string().max(200).optional().catch(undefined),
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
  state: z.enum(jobStates).optional().catch(undefined),
});
export type JobListSearchParams = z.infer<typeof jobListSearchParams>;

/** The job page's URL state: the diagnosis shown (its id; the newest by default). */
export const jobPageSearchParams = z.object({
  diagnosis: z.coerce.number().int().positive().optional().catch(undefined),
});
export type JobPageSearchParams = z.infer<typeof jobPageSearchParams>;

/** A URL query for a state, leaving what is unset out. */
export function queryOf(state: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) if (value !== undefined && value !== "") params.set(key, String(value));
  return params.toString();
}
