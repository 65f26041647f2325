import { z } from "zod";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { loadTopologyView } from "@/db/queries/topology-view";
import { MAX_HOPS, topologyLevels } from "@/lib/topology/model";
import { linkKindList } from "@/lib/topology/url";
import { route } from "@/server/auth/guard";
import { cachedJson, etagFor, queryOf, type ClusterRouteContext } from "./shared";
import { readFor, withReadHeaders } from "@/server/http/read-routing";
import { faultHealthSnapshot } from "@/db/queries/faults";
import { sharedFaultValue } from "@/server/faults/read-cache";

export const dynamic = "force-dynamic";

const query = z
  .object({
    level: z.enum(topologyLevels).default("cluster"),
    id: z.string().min(1).max(200).optional(),
    hops: z.coerce.number().int().min(0).max(MAX_HOPS).default(0),
    via: linkKindList.optional(),
    from: z.string().min(1).max(200).optional(),
    /** A job of this cluster: each aggregate of the view says how many of its dies the job has (`job` on the node). */
    job: z.coerce.number().int().positive().max(2 ** 31 - 1).optional(),
  })
  .refine((q) => q.level === "cluster" || q.id !== undefined, { message: "id is required for every level but cluster", path: ["id"] })
  .refine((q) => q.hops === 0 || q.level === "server", { message: "hops expands a server view only", path: ["hops"] });

/**
 * `GET /api/v1/clusters/{id}/topology?level=cluster|superpod|row|rack|server&id=...`: the nodes and links of one
 * view, laid out. `{id}` is the cluster's numeric id or slug; `id=` takes a super pod's, row's, rack's or server's
 * node id. A server view
 * expands with `hops=1..3` along `via=<kind>,<kind>` (default: every kind), from the die `from=` (default: the whole
 * server), bounded (the answer's `neighbourhood` says how much was left undrawn). `job=<id>`: a job of the cluster
 * counted per aggregate (its dies there, and how many are faulty or degraded).
 */
export const GET = route<ClusterRouteContext>("read", async ({ request, context }) => {
  const { id: clusterId } = await context.params;
  const q = query.parse(queryOf(request));
  const id = q.level === "cluster" ? null : q.id!;
  const expand = { hops: q.hops, via: q.via ?? [], from: q.hops > 0 ? (q.from ?? null) : null };
  const expandKey = expand.hops > 0 ? { hops: String(expand.hops), via: expand.via.join(","), from: expand.from } : {};
  const { value, read } = await readFor(request, async (handle) => {
    const cluster = await getClusterOrThrow(handle.db, clusterId);
    const health = () => sharedFaultValue(request, String(cluster.id), "health", handle, () => faultHealthSnapshot(handle.pool, cluster.id));
    const { faultsVersion, build } = await loadTopologyView(handle, cluster, q.level, id, expand, q.job ?? null, health);
    return cachedJson(request, etagFor(cluster, "view", { level: q.level, id, faults: faultsVersion, ...expandKey, ...(q.job ? { job: String(q.job) } : {}) }), build);
  });
  return withReadHeaders(value, read);
});
