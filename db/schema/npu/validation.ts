import { z } from "zod";
import { maxNpusPerServer } from "./constants";

export const npuInputSchema = z.object({
  npuIndex: z.number().int().min(0).max(maxNpusPerServer - 1),
});
