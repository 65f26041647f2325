import { z } from "zod";
import { appDatabase } from "@/db/client";
import { getServerCpuLayout } from "@/db/queries/cpu-layout";
import { cpuLayoutTextLimit } from "@/db/schema/server-cpu-layout/validation";
export { affinityBodyLimit } from "@/db/schema/server-cpu-layout/validation";
import { readLayout, type LayoutReading } from "@/lib/affinity/layout";
import { invalid, notFound } from "@/lib/errors";

/** Where the server's layout comes from: pasted texts, or a server of the inventory with a stored layout. */
export const layoutSourceSchema = z.object({
  lscpu: z.string().max(cpuLayoutTextLimit).optional(),
  topo: z.string().max(cpuLayoutTextLimit).optional(),
  cluster: z.string().max(64).optional(),
  server: z.string().max(64).optional(),
});

export async function layoutFromSource(source: z.infer<typeof layoutSourceSchema>): Promise<LayoutReading> {
  if (source.lscpu !== undefined && source.lscpu.trim() !== "") return readLayout(source.lscpu, source.topo);
  if (source.cluster === undefined || source.server === undefined) {
    throw invalid("give the server's lscpu text (and its npu-smi topo), or a cluster and server with a stored layout", { code: "layout_required" });
  }
  const stored = await getServerCpuLayout(appDatabase().db, source.cluster, source.server);
  if (stored.lscpuText === null) {
    throw notFound(`server ${source.server} has no stored CPU layout`, { code: "no_cpu_layout" });
  }
  return readLayout(stored.lscpuText, stored.topoText ?? undefined);
}
