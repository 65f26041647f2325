import { z } from "zod";
import { portCodes, type PortCode } from "./findings";

export const portTabs = ["map", "findings", "policy", "plan"] as const;
export type PortTab = (typeof portTabs)[number];

/**
 * The ports page's URL state: cluster (slug), tab, the job and host selected, the map's filters (host search, only
 * hosts with a conflict, its page) and the findings' code filter. Anything malformed falls back to the default.
 */
export const portsSearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
  tab: z.enum(portTabs).optional().catch(undefined),
  job: z.coerce.number().int().positive().optional().catch(undefined),
  host: z.string().min(1).max(200).optional().catch(undefined),
  q: z.string().max(200).optional().catch(undefined),
  conflicts: z.literal("1").optional().catch(undefined),
  page: z.coerce.number().int().positive().max(100_000).optional().catch(undefined),
  code: z.enum(Object.keys(portCodes) as [PortCode, ...PortCode[]]).optional().catch(undefined),
});
export type PortsSearchParams = z.infer<typeof portsSearchParams>;
