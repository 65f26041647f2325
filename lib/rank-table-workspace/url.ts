import { z } from "zod";

export const workspaceTabs = ["visual", "json", "history"] as const;

/** The editor's URL state: which view of the table is open. */
export const workspaceSearchParams = z.object({
  tab: z.enum(workspaceTabs).catch("visual").default("visual"),
});

/** The list's URL state: the name filter (`q`) and the cluster filter (`linked`: a cluster id, or `none` for unlinked). */
export const rankTableListSearchParams = z.object({
  q: z.string().max(200).optional().catch(undefined),
  linked: z
    .union([z.literal("none"), z.coerce.number().int().positive()])
    .optional()
    .catch(undefined),
});
export type RankTableListSearchParams = z.infer<typeof rankTableListSearchParams>;

/** The list's URL query for a state, leaving defaults out. */
export function rankTableListQuery(state: RankTableListSearchParams): string {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.linked !== undefined) params.set("linked", String(state.linked));
  return params.toString();
}
