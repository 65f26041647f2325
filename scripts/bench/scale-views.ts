/**
 * The views the scale bench (./scale.ts) times, each as what its API route runs (the loader and the JSON it
 * answers), against a cluster whose topology index is built. A new view adds an entry here: the bench times it
 * cold (its first request on the built index) and warm, and prints how that grows from 16k to 524k NPUs.
 */
import { and, eq } from "drizzle-orm";
import type { DatabaseHandle } from "@/db/client";
import { faultStatistics, listTimeline } from "@/db/queries/faults";
import { listClusterSummaries } from "@/db/queries/inventory";
import { loadJobPortBindings, loadJobPortFindings, loadJobPortSummary } from "@/db/queries/job-ports";
import { loadJobDies, loadJobRanksPage, loadJobSummary } from "@/db/queries/job-ranks";
import { getRankTable, listRankTables } from "@/db/queries/rank-tables";
import { jobs, rankTables } from "@/db/schema";
import { timelineQuerySchema } from "@/db/schema/fault-event/validation";
import type { JobRanksQueryInput } from "@/db/schema/job/ranks";
import { loadNodeDetails } from "@/db/queries/node-details";
import { loadTopologyView } from "@/db/queries/topology-view";
import type { LinkKind } from "@/lib/inventory/vocabulary";
import type { ClusterHeader, TopologyIndex } from "@/lib/topology/inventory-index";
import type { TopologyLevel } from "@/lib/topology/model";
import { rackIndex } from "@/lib/topology/racks";
import { rowIndex } from "@/lib/topology/rows";
import { NO_EXPAND } from "@/lib/topology/url";

export interface ScaleView {
  /** A short name for the table: "cluster", "superpod", "n-hop 2"… */
  name: string;
  /** Whether the cluster has what the view shows (a rack view needs a super pod or plain cluster drawn by rack). */
  applies?(index: TopologyIndex): boolean;
  /** Runs what the view's route runs for one request and returns the body it would send. */
  request(handle: DatabaseHandle, cluster: ClusterHeader, index: TopologyIndex): Promise<unknown>;
}

/** A node in the middle of the cluster, not the first one: nothing about it is warm by accident. */
const middle = <T>(list: readonly T[]): T => list[Math.floor(list.length / 2)]!;
/** The racks the index draws (a super pod of more than 64 servers of a 1.x inventory, or more than 1,024 plain servers). */
const racks = (index: TopologyIndex) => [...rackIndex(index).byId.values()];
/** The rows of racks the index draws (plain servers past 128 racks). */
const rows = (index: TopologyIndex) => rowIndex(index).rows;
const hasPods = (index: TopologyIndex) => index.pods.length > 0;

const topologyView = (level: TopologyLevel, pick: (index: TopologyIndex) => string | null, applies?: ScaleView["applies"]): ScaleView => ({
  name: level,
  applies,
  async request(handle, cluster, index) {
    // GET /api/v1/clusters/{id}/topology?level=…&id=… (app/api/v1/clusters/[id]/topology/route.ts).
    const load = await loadTopologyView(handle, cluster, level, pick(index));
    return load.build();
  },
});

/**
 * A server view expanded `hops` hops (`topology?level=server&id=…&hops=…&via=…&from=…`, lib/topology/neighbourhood.ts):
 * from the middle server, or from its middle die along the given kinds (none: every kind).
 */
const neighbourhood = (hops: number, options: { fromDie?: boolean; via?: readonly LinkKind[] } = {}): ScaleView => ({
  name: `server ${hops} hops${options.fromDie ? " from a die" : ""}${options.via ? ` via ${options.via.join(",")}` : ""}`,
  async request(handle, cluster, index) {
    const server = middle(index.servers);
    const from = options.fromDie ? index.die(server.firstRank + Math.floor(server.dieCount / 2)).id : null;
    const load = await loadTopologyView(handle, cluster, "server", server.id, { hops, via: options.via ?? [], from });
    return load.build();
  },
});

export const scaleViews: ScaleView[] = [
  topologyView("cluster", () => null),
  topologyView("superpod", (index) => middle(index.pods).id, hasPods),
  // A row opened from a plain cluster drawn by row: its racks.
  topologyView("row", (index) => middle(rows(index)).id, (index) => rows(index).length > 0),
  // A rack opened from a super pod (or plain cluster or row) drawn by rack: its servers.
  topologyView("rack", (index) => middle(racks(index)).id, (index) => racks(index).length > 0),
  topologyView("server", (index) => middle(index.servers).id),
  neighbourhood(1),
  neighbourhood(3),
  neighbourhood(2, { fromDie: true }),
  neighbourhood(3, { fromDie: true, via: ["roce", "net-layer-0"] }),
  {
    name: "details (die)",
    // GET /api/v1/clusters/{id}/topology/node?kind=die&id=… (the details panel).
    request: async (handle, cluster, index) => (await loadNodeDetails(handle, cluster, "die", index.die(Math.floor(index.dieCount / 2)).id)).details,
  },
];

/** The large job ./scale-usage.ts creates on each cluster (min(100,000, the cluster's dies) ranks). */
export const SCALE_JOB_NAME = "scale-job";
/** Its rank table, saved as a rank table of the cluster. */
export const SCALE_TABLE_NAME = "scale-table";

async function scaleJobId(handle: DatabaseHandle, cluster: ClusterHeader): Promise<number> {
  const [job] = await handle.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.clusterId, cluster.id), eq(jobs.name, SCALE_JOB_NAME)));
  if (!job) throw new Error(`no job ${SCALE_JOB_NAME} on ${cluster.slug}: scale-usage.ts did not run`);
  return job.id;
}

/** Ranks per job, looked up once (outside the timings after the first) so pages can be picked near the end. */
const totals = new Map<number, number>();

const jobRanks = (name: string, query: (total: number, index: TopologyIndex) => JobRanksQueryInput): ScaleView => ({
  name,
  async request(handle, cluster, index) {
    // GET /api/v1/jobs/{id}/ranks?… (app/api/v1/jobs/[id]/ranks/route.ts).
    const id = await scaleJobId(handle, cluster);
    if (!totals.has(id)) totals.set(id, (await loadJobRanksPage(handle.db, id, cluster.id, { limit: 1 })).total);
    return loadJobRanksPage(handle.db, id, cluster.id, query(totals.get(id)!, index));
  },
});

/**
 * The job over an aggregated view (`topology?job=<id>`, lib/topology/job-aggregates.ts): what the job page asks for
 * when `/dies` says the view is aggregated. The job's dies are the cluster's first ones, so the middle super pod is
 * the first one's (the job's dies there).
 */
const jobOverlay = (level: "cluster" | "superpod", applies?: ScaleView["applies"]): ScaleView => ({
  name: `${level} + job overlay`,
  applies,
  async request(handle, cluster, index) {
    const load = await loadTopologyView(handle, cluster, level, level === "cluster" ? null : index.pods[0]!.id, NO_EXPAND, await scaleJobId(handle, cluster));
    return load.build();
  },
});

/** The job page (issue 21: a job on 100,000 ranks): its answer, pages of its ranks, its topology overlay. */
export const jobViews: ScaleView[] = [
  // GET /api/v1/jobs/{id} and the page's first data.
  { name: "job summary", request: async (handle, cluster) => loadJobSummary(handle.db, await scaleJobId(handle, cluster)) },
  jobRanks("job ranks: last page by rank desc", (total) => ({ offset: Math.max(0, total - 50), sort: "rank", order: "desc" })),
  jobRanks("job ranks: middle page by server", (total) => ({ offset: Math.floor(total / 2), sort: "server" })),
  jobRanks("job ranks: search a server", (_, index) => ({ q: index.servers[1]!.id })),
  jobRanks("job ranks: placed, 500", () => ({ state: "placed", limit: 500, offset: 1000 })),
  // GET /api/v1/jobs/{id}/dies.
  { name: "job dies (overlay)", request: async (handle, cluster) => loadJobDies(handle.db, await scaleJobId(handle, cluster)) },
  // GET /api/v1/jobs/{id}/ports (cold: the job's port check itself), then pages of it (…/ports/bindings, …/findings).
  { name: "job ports summary", request: async (handle, cluster) => loadJobPortSummary(handle.db, await scaleJobId(handle, cluster)) },
  { name: "job ports: conflicted bindings, 500", request: async (handle, cluster) => loadJobPortBindings(handle.db, await scaleJobId(handle, cluster), { conflict: "true", limit: 500 }) },
  { name: "job ports: findings page", request: async (handle, cluster) => loadJobPortFindings(handle.db, await scaleJobId(handle, cluster), {}) },
  jobOverlay("cluster"),
  jobOverlay("superpod", hasPods),
];

const day = 86_400_000;

/** The other pages of issue 21's item 3, as their routes run them; the faults are ./scale-usage.ts's (the last day). */
export const pageViews: ScaleView[] = [
  // GET /api/v1/clusters (the overview's cards: counts, not dies).
  { name: "overview (cluster summaries)", request: (handle) => listClusterSummaries(handle.db) },
  // GET /api/v1/fault-events?cluster=&from=&to= (the timeline: events and density; lanes are built in the browser).
  {
    name: "fault timeline (1 day)",
    request: (handle, cluster) => listTimeline(handle.pool, cluster, timelineQuerySchema.parse({ cluster: cluster.slug, from: Date.now() - day, to: Date.now() })),
  },
  // GET /api/v1/fault-events/stats?cluster=&from=&to= (statistics: per kind, level, super pod; the top servers and dies).
  { name: "fault statistics (1 day)", request: (handle, cluster) => faultStatistics(handle.pool, cluster, Date.now() - day, Date.now()) },
  // GET /api/v1/rank-tables (the rank-table list).
  { name: "rank-table list", request: (handle) => listRankTables(handle.db) },
  // GET /api/v1/rank-tables/{id} (what the editor opens a saved table with: its text and its fit to the cluster).
  {
    name: "rank table detail (the job's table)",
    async request(handle, cluster) {
      const [table] = await handle.db.select({ id: rankTables.id }).from(rankTables).where(and(eq(rankTables.clusterId, cluster.id), eq(rankTables.name, SCALE_TABLE_NAME)));
      if (!table) throw new Error(`no rank table ${SCALE_TABLE_NAME} on ${cluster.slug}: scale-usage.ts did not run`);
      return getRankTable(handle.db, table.id);
    },
  },
];
