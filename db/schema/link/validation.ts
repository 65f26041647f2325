import { z } from "zod";
import { linkKinds } from "./constants";

export const linkInputSchema = z
  .object({
    kind: z.enum(linkKinds),
    sourceDevice: z.number().int().positive(),
    targetDevice: z.number().int().positive(),
  })
  .refine((link) => link.sourceDevice !== link.targetDevice, { message: "a link joins two different dies" });
