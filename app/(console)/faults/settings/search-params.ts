import { z } from "zod";

/** The fault settings page's URL state: which cluster (default the first). */
export const faultSettingsSearchParams = z.object({
  cluster: z.string().regex(/^[a-z0-9-]{1,63}$/).optional().catch(undefined),
});
export type FaultSettingsSearchParams = z.infer<typeof faultSettingsSearchParams>;
