import { storable } from "@/lib/text-safety";
import { z } from "zod";
import { clusterModes, clusterSlugPattern } from "./constants";

export const clusterInputSchema = z.object({
  slug: z.string().regex(clusterSlugPattern, "lower-case letters, digits and dashes, at most 63 characters"),
  name: storable(z.string().trim().min(1).max(200)),
  mode: z.enum(clusterModes),
  description: storable(z.string().max(2000)).default(""),
});
export type ClusterInput = z.infer<typeof clusterInputSchema>;

/** What `GET /api/v1/clusters` returns for each cluster. */
export const clusterSummarySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  mode: z.enum(clusterModes),
  superPods: z.number().int(),
  servers: z.number().int(),
  npus: z.number().int(),
  devices: z.number().int(),
  serversByModel: z.record(z.string(), z.number().int()),
});
export type ClusterSummary = z.infer<typeof clusterSummarySchema>;
