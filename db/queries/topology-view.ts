import { createHash } from "node:crypto";
import { DomainError } from "@/lib/errors";
import { linkKinds } from "@/lib/inventory/vocabulary";
import type { ClusterHeader, TopologyIndex } from "@/lib/topology/inventory-index";
import { healthOverlay, withHealth } from "@/lib/topology/health-overlay";
import { jobDieSet, withJobAggregates, type JobDieSet } from "@/lib/topology/job-aggregates";
import { topologyDieId } from "@/lib/jobs/placement";
import type { TopologyLevel, TopologyView } from "@/lib/topology/model";
import { podOfRackId } from "@/lib/topology/racks";
import { NO_EXPAND, type ViewExpand } from "@/lib/topology/url";
import { buildTopologyView } from "@/lib/topology/view";
import { SharedAnswers } from "@/lib/shared-answers";
import type { DatabaseHandle } from "../client";
import { viewFabricOf } from "./fabric";
import { faultHealthSnapshot } from "./faults";
import { topologyIndex } from "./topology";

export interface TopologyViewLoad {
  /**
   * Changes with the cluster's open faults (and a super pod's bus planes): with the inventory revision, it names the
   * view's content (the ETag).
   */
  faultsVersion: string;
  /** Lays the view out from the cached inventory index, with live health. Throws not_found for an unknown id. */
  build: () => Promise<TopologyView>;
}

/**
 * The one loader of a topology view (index and, for a super pod, its bus planes → view → fault health, aggregated
 * per super pod, server and NPU), for the page's first paint and for `GET /api/v1/clusters/{id}/topology`. The health
 * and planes (and a job's dies, `jobId`: drawn per aggregate) are read first, so the route can answer 304 or a cached body without laying anything out. `expand`: a
 * server view's neighbourhood (hops along link kinds; none: every kind).
 */
export async function loadTopologyView(
  handle: DatabaseHandle,
  cluster: ClusterHeader,
  level: TopologyLevel,
  id: string | null,
  expand: ViewExpand = NO_EXPAND,
  jobId: number | null = null,
  /** The cluster's open faults: the API route passes a shared copy (server/faults/read-cache.ts). */
  healthOf: () => ReturnType<typeof faultHealthSnapshot> = () => faultHealthSnapshot(handle.pool, cluster.id),
): Promise<TopologyViewLoad> {
  // Live health from the open fault events (issue 7): part of the ETag, so a new fault is a new body. The stored
  // fabric a view draws (a super pod's bus planes, a server's chips and planes, the parameter plane) is part of it
  // too, since choosing another fabric profile changes it without a new inventory revision.
  // A rack draws its super pod's bus planes; a row (of plain servers' racks) draws no fabric.
  const rackPod = level === "rack" && id !== null ? podOfRackId(id) : null;
  const fabricOf =
    level === "row" ? Promise.resolve({})
    : level === "rack" ? (rackPod === null ? Promise.resolve({}) : viewFabricOf(handle.db, cluster.id, "superpod", rackPod))
    : viewFabricOf(handle.db, cluster.id, level, id);
  // The index is asked for first, so that a process without it reads and builds it while the health, fabric and job
  // are read, not after them (a fresh process's first view at 524,288 NPUs waited 0.3–0.9 s for the open faults and
  // 0.55 s for the parameter plane's totals before its index began; scripts/bench/scale.ts). Kept per revision, and a
  // 304 leaves it built for the next request.
  const index = topologyIndex(handle.db, cluster);
  const [health, fabric, job] = await Promise.all([healthOf(), fabricOf, jobId === null ? Promise.resolve(null) : jobVersion(handle, cluster.id, jobId)]);
  const drawn = Object.values(fabric).some((part) => (Array.isArray(part) ? part.length > 0 : part != null));
  const fabricVersion = drawn ? `.${createHash("sha256").update(JSON.stringify(fabric)).digest("base64url").slice(0, 8)}` : "";
  return {
    faultsVersion: health.version + fabricVersion + (job === null ? "" : `.job${jobId}-${job}`),
    build: async () => {
      const expansion = level === "server" && expand.hops > 0 ? { hops: expand.hops, kinds: expand.via.length ? expand.via : linkKinds, from: expand.from } : undefined;
      const built = await index;
      const view = buildTopologyView(built, level, id, fabric, expansion);
      const overlay = healthOverlay(built, health.collected ? health.faults : null);
      const healthy = withHealth(view, overlay);
      return job === null ? healthy : withJobAggregates(healthy, built, await jobDiesOn(handle, built, jobId!, job), overlay).view;
    },
  };
}

/**
 * A job's version on this cluster, for the ETag and its dies' cache: its last update (every write that changes its
 * placement sets it). Throws not_found for a job that is not on this cluster.
 */
async function jobVersion(handle: DatabaseHandle, clusterId: number, jobId: number): Promise<string> {
  const { rows } = await handle.pool.query<{ updated: string }>("select extract(epoch from updated_at)::text as updated from jobs where id = $1 and cluster_id = $2", [jobId, clusterId]);
  if (rows.length === 0) throw new DomainError("not_found", `no job ${jobId} on this cluster`);
  return rows[0]!.updated.replace(/\D/g, "");
}

/**
 * The job's dies as the index's ranks, kept per job while its version and the inventory revision hold (a placement
 * names dies by id, which the next revision may number otherwise): reading and looking up 100,000 die ids on every request was
 * most of a job overlay's 264–351 ms warm at 131,072 NPUs (issue 21; now 58–136 ms, what the view alone costs). 1.4 MB
 * at 524,288 NPUs (a byte per die and the job's ranks); eight jobs at most.
 */
const keptDieSets = new SharedAnswers<JobDieSet>({ maxEntries: 8 });

function jobDiesOn(handle: DatabaseHandle, index: TopologyIndex, jobId: number, version: string): Promise<JobDieSet> {
  const { cluster } = index;
  return keptDieSets.get(`${cluster.id}:${jobId}`, () => `${version}:${cluster.inventoryRevision}`, async () => {
    const { rows } = await handle.pool.query<{ die_key: string }>("select die_key from job_ranks where job_id = $1 and die_key is not null", [jobId]);
    const dies = jobDieSet(index, rows.map((row) => topologyDieId(row.die_key)));
    return { value: dies, size: dies.member.byteLength + dies.ranks.byteLength, maxAgeMs: Number.POSITIVE_INFINITY };
  });
}
