import { z } from "zod";

/** The overview's URL state: an optional cluster slug narrowing the page to one cluster. */
export const overviewSearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
});
export type OverviewSearchParams = z.infer<typeof overviewSearchParams>;
