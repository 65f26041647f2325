import { z } from "zod";
import { serverIdMaxLength, serverModelNames } from "./constants";

export const serverInputSchema = z.object({
  serverId: z.string().min(1).max(serverIdMaxLength),
  hostIp: z.ipv4().nullable(),
  model: z.enum(serverModelNames),
  superPodId: z.string().min(1).nullable(),
});
export type ServerInput = z.infer<typeof serverInputSchema>;
