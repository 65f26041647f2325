/** A job's CPU binding: its servers (model, stored CPU layout, the job's NPUs on each) checked and planned. */
import { and, eq, inArray } from "drizzle-orm";
import { planJobAffinity, type JobAffinityOptions, type JobAffinityView, type JobServer } from "@/lib/affinity/job-plan";
import { notFound } from "@/lib/errors";
import type { Database } from "../client";
import { servers, serverCpuLayouts } from "../schema";
import { getJob } from "./jobs";

/** The loader of `GET /api/v1/jobs/{id}/affinity` and the CLI's `affinity plan --job`. */
export async function loadJobAffinity(db: Database, jobId: number, options: JobAffinityOptions = {}): Promise<JobAffinityView> {
  const job = await getJob(db, jobId);
  if (!job) throw notFound(`there is no job ${jobId}`);
  // The placed ranks' dies (`<server>/d<device>`) → the job's NPUs on each server.
  const npusOf = new Map<string, Set<number>>();
  for (const rank of job.ranks) {
    if (rank.dieId === null) continue;
    const at = rank.dieId.lastIndexOf("/d");
    const serverId = rank.dieId.slice(0, at);
    const npus = npusOf.get(serverId) ?? new Set<number>();
    npus.add(Number(rank.dieId.slice(at + 2)));
    npusOf.set(serverId, npus);
  }
  const ids = [...npusOf.keys()];
  const [models, layouts] = ids.length === 0
    ? [[], []]
    : await Promise.all([
        db.select({ serverId: servers.serverId, model: servers.model }).from(servers).where(and(eq(servers.clusterId, job.cluster.id), inArray(servers.serverId, ids))),
        db
          .select({ serverId: serverCpuLayouts.serverId, layout: serverCpuLayouts.layout })
          .from(serverCpuLayouts)
          .where(and(eq(serverCpuLayouts.clusterId, job.cluster.id), inArray(serverCpuLayouts.serverId, ids))),
      ]);
  const modelOf = new Map(models.map((row) => [row.serverId, row.model]));
  const layoutOf = new Map(layouts.map((row) => [row.serverId, row.layout]));
  const jobServers: JobServer[] = ids.sort().map((serverId) => ({
    serverId,
    // A server removed from the inventory since the job was placed keeps its ranks; its model is no longer known.
    model: modelOf.get(serverId) ?? "?",
    npus: [...(npusOf.get(serverId) ?? [])].sort((a, b) => a - b),
    layout: layoutOf.get(serverId) ?? null,
  }));
  return { jobId: job.id, cluster: job.cluster.slug, ...planJobAffinity(jobServers, job.environment, options) };
}
