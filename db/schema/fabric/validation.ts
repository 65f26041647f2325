import { z } from "zod";
import { fabricProfileIdPattern } from "@/lib/fabric/profiles";

/** `PUT /api/v1/clusters/{id}/fabric`: the profile to use (lib/fabric/profiles.ts), or null for the servers' default. */
export const fabricProfileChoiceSchema = z.object({ profile: z.string().regex(fabricProfileIdPattern).nullable() });
