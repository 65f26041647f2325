import { z } from "zod";

/**
 * The CPU affinity page's URL state, parsed in one place: the stored server whose layout is loaded (cluster slug and
 * server id), the tab, the value checked with its ASCEND_RT_VISIBLE_DEVICES and job NPUs, and the plan's NPUs,
 * processes, reserve and mode. The pasted texts stay out (too long for a link); a chosen server brings its own.
 */
export const affinitySearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
  server: z.string().min(1).max(64).optional().catch(undefined),
  tab: z.enum(["check", "plan"]).catch("check").default("check"),
  value: z.string().max(2000).optional().catch(undefined),
  visible: z.string().max(200).optional().catch(undefined),
  jobNpus: z.string().max(200).optional().catch(undefined),
  npus: z.string().max(200).optional().catch(undefined),
  processes: z.coerce.number().int().min(1).max(64).optional().catch(undefined),
  reserve: z.coerce.number().int().min(0).max(256).catch(0).default(0),
  mode: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)])).catch(1).default(1),
});
export type AffinitySearchParams = z.infer<typeof affinitySearchParams>;

/** The URL query for a state, leaving defaults and empty fields out so links stay short. */
export function affinityQuery(state: Partial<AffinitySearchParams>): string {
  const params = new URLSearchParams();
  if (state.cluster) params.set("cluster", state.cluster);
  if (state.cluster && state.server) params.set("server", state.server);
  if (state.tab && state.tab !== "check") params.set("tab", state.tab);
  for (const key of ["value", "visible", "jobNpus", "npus"] as const) if (state[key]) params.set(key, state[key]);
  if (state.processes !== undefined) params.set("processes", String(state.processes));
  if (state.reserve) params.set("reserve", String(state.reserve));
  if (state.mode === 2) params.set("mode", "2");
  return params.toString();
}
