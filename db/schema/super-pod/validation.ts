import { z } from "zod";
import { superPodIdMaxLength } from "./constants";

export const superPodInputSchema = z.object({
  superPodId: z.string().min(1).max(superPodIdMaxLength),
});
export type SuperPodInput = z.infer<typeof superPodInputSchema>;
