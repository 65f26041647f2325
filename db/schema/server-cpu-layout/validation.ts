import { z } from "zod";

/** The texts are what a terminal prints; 64 KiB holds a 640-CPU lscpu and a 16-NPU topo many times over. */
export const cpuLayoutTextLimit = 65_536;

/** Bodies carrying both texts: the layout PUT (some JSON around them) and the affinity check/plan (more options). */
export const cpuLayoutBodyLimit = 2 * cpuLayoutTextLimit + 4096;
export const affinityBodyLimit = 2 * cpuLayoutTextLimit + 16_384;

/** `PUT /api/v1/clusters/{id}/servers/{serverId}/cpu-layout`. */
export const cpuLayoutInputSchema = z.object({
  lscpu: z.string().min(1, "paste the server's lscpu output").max(cpuLayoutTextLimit),
  topo: z.string().max(cpuLayoutTextLimit).optional(),
  /** "model": store the same layout for every server of this server's model in the cluster. */
  scope: z.enum(["server", "model"]).default("server"),
});
export type CpuLayoutInput = z.infer<typeof cpuLayoutInputSchema>;
