import { z } from "zod";

export const workspaceTabs = ["visual", "json", "history"] as const;

/** The editor's URL state: which view of the table is open. */
export const workspaceSearchParams = z.object({
  tab: z.enum(workspaceTabs).catch("visual").default("visual"),
});
