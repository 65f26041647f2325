import { z } from "zod";
import { severityFilters } from "@/components/rank-tables/severity-counts";

export type { SeverityFilter } from "@/components/rank-tables/severity-counts";

/** The checker's URL state: which severities the problems list shows. */
export const rankTableCheckerSearchParams = z.object({
  severity: z.enum(severityFilters).catch("all").default("all"),
});
