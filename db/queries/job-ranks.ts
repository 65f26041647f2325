import { eq, sql, type SQL } from "drizzle-orm";
import { topologyDieId } from "@/lib/jobs/placement";
import { SharedAnswers } from "@/lib/shared-answers";
import { CLUSTER_SERVER_CELLS_MAX } from "@/lib/topology/view";
import type { MatchKind, UnmatchedReason } from "@/lib/jobs/model";
import type { Database } from "../client";
import { clusters, dieKeyServerSql, jobs } from "../schema";
import { JOB_RANKS_PAGE_DEFAULT, jobRanksQuerySchema, type JobDies, type JobPodCount, type JobRankCounts, type JobRanksPage, type JobRanksQuery, type JobRanksQueryInput, type JobScope, type JobSummary } from "../schema/job/ranks";
import type { JobRankInfo } from "../schema/job/validation";
import { jobListColumns, toJobListItem } from "./jobs-list";

/**
 * The job page's loaders, shared by the page and the API (issue 21: a job on 100,000 ranks). Everything here is
 * bounded by a page, the super pods or the drawn view, never by the job's ranks: the ranks are counted, filtered,
 * sorted and paged in PostgreSQL.
 */

const dieServer = sql.raw(dieKeyServerSql("jr.die_key"));

function rankFilter(jobId: number, clusterId: number, query: JobRanksQuery): SQL {
  const parts: SQL[] = [sql`jr.job_id = ${jobId}`];
  if (query.state === "placed") parts.push(sql`jr.die_key is not null`);
  if (query.state === "unmatched") parts.push(sql`jr.die_key is null`);
  if (query.state === "ip-differs") parts.push(sql`jr.device_ip_differs`);
  if (query.server !== undefined) parts.push(sql`jr.server_id = ${query.server}`);
  if (query.pod !== undefined)
    parts.push(sql`${dieServer} in (select s.server_id from servers s join super_pods p on p.id = s.super_pod_ref
      where s.cluster_id = ${clusterId} and p.cluster_id = ${clusterId} and p.super_pod_id = ${query.pod})`);
  const q = query.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, "\\$&")}%`;
    const text = sql`(jr.server_id ilike ${like} or jr.device_ip ilike ${like} or jr.die_key ilike ${like} or jr.host_ip ilike ${like})`;
    parts.push(/^\d{1,9}$/.test(q) ? sql`(jr.rank = ${Number(q)} or ${text})` : text);
  }
  return sql.join(parts, sql` and `);
}

/**
 * Each sort follows an index of job_ranks (db/schema/job/table.ts; PostgreSQL's default null order: last ascending,
 * first descending), so a page is an index walk, not a sort of the job's every rank. Ranks without a usable rank_id
 * are unmatched ("no-rank"), so the default sort still lists them first.
 */
function rankOrder(query: JobRanksQuery): SQL {
  const dir = sql.raw(query.order === "desc" ? "desc" : "asc");
  switch (query.sort) {
    case "position":
      return sql`jr.position ${dir}`;
    case "rank":
      return sql`jr.rank ${dir}, jr.position ${dir}`;
    case "server":
      return sql`jr.server_id ${dir}, jr.device_id ${dir}, jr.position ${dir}`;
    case "device":
      return sql`jr.device_id ${dir}, jr.server_id ${dir}, jr.position ${dir}`;
    case "problems":
      return sql`(jr.die_key is not null) ${dir}, jr.rank ${dir}, jr.position ${dir}`;
  }
}

interface RankRow extends Record<string, unknown> {
  rank: number | null;
  server_id: string | null;
  host_ip: string | null;
  device_id: number | null;
  device_ip: string | null;
  die_key: string | null;
  match: MatchKind | null;
  unmatched: UnmatchedReason | null;
  device_ip_differs: boolean;
}

const toRankInfo = (r: RankRow): JobRankInfo => ({
  rank: r.rank,
  serverId: r.server_id,
  hostIp: r.host_ip,
  deviceId: r.device_id,
  deviceIp: r.device_ip,
  dieId: r.die_key === null ? null : topologyDieId(r.die_key),
  match: r.match,
  unmatched: r.unmatched,
  deviceIpDiffers: r.device_ip_differs,
});

/** One page of a job's ranks (of a job known to be in `clusterId`). */
export async function loadJobRanksPage(db: Database, jobId: number, clusterId: number, input: JobRanksQueryInput = {}): Promise<JobRanksPage> {
  const query = jobRanksQuerySchema.parse(input);
  const where = rankFilter(jobId, clusterId, query);
  // The page and the filtered count apart: a count over the page's window would read every matching rank first.
  const [{ rows }, counted] = await Promise.all([
    db.execute<RankRow>(sql`
      select jr.rank, jr.server_id, jr.host_ip, jr.device_id, jr.device_ip, jr.die_key, jr.match, jr.unmatched, jr.device_ip_differs
      from job_ranks jr where ${where}
      order by ${rankOrder(query)} offset ${query.offset} limit ${query.limit}`),
    db.execute<{ n: string }>(sql`select count(*) as n from job_ranks jr where ${where}`),
  ]);
  const total = Number(counted.rows[0]!.n);
  return { total, offset: query.offset, limit: query.limit, items: rows.map(toRankInfo) };
}

/** The job's cluster, or undefined when there is no such job. */
export async function jobClusterOf(db: Database, jobId: number): Promise<{ clusterId: number } | undefined> {
  const [row] = await db.select({ clusterId: jobs.clusterId }).from(jobs).where(eq(jobs.id, jobId));
  return row;
}

async function rankCounts(db: Database, jobId: number): Promise<JobRankCounts> {
  const { rows } = await db.execute<Record<string, string>>(sql`
    select count(*) as total, count(die_key) as placed, count(*) filter (where device_ip_differs) as ip_differs,
      count(distinct server_id) as table_servers,
      count(*) filter (where unmatched = 'no-rank') as no_rank, count(*) filter (where unmatched = 'unknown-server') as unknown_server,
      count(*) filter (where unmatched = 'unknown-device') as unknown_device
    from job_ranks where job_id = ${jobId}`);
  const r = rows[0]!;
  const n = (key: string) => Number(r[key] ?? 0);
  return {
    total: n("total"),
    placed: n("placed"),
    unmatched: n("total") - n("placed"),
    ipDiffers: n("ip_differs"),
    tableServers: n("table_servers"),
    byReason: { "no-rank": n("no_rank"), "unknown-server": n("unknown_server"), "unknown-device": n("unknown_device") },
  };
}

/** Placed ranks and their servers per super pod, in the inventory's pod order (pods the job is not on left out). */
async function podCounts(db: Database, jobId: number, clusterId: number): Promise<{ pods: JobPodCount[]; servers: number; onlyServer: string | null }> {
  const { rows } = await db.execute<{ pod: string | null; ranks: string; servers: string; only_server: string | null }>(sql`
    with per_server as (
      select ${dieServer} as server_id, count(*) as ranks from job_ranks jr where jr.job_id = ${jobId} and jr.die_key is not null group by 1
    )
    select p.super_pod_id as pod, sum(r.ranks) as ranks, count(*) as servers, min(r.server_id) as only_server
    from per_server r
    left join servers s on s.cluster_id = ${clusterId} and s.server_id = r.server_id
    left join super_pods p on p.id = s.super_pod_ref
    group by p.super_pod_id, p.position order by p.position nulls last`);
  const pods = rows.map((r) => ({ superPodId: r.pod, ranks: Number(r.ranks), servers: Number(r.servers) }));
  const servers = pods.reduce((sum, p) => sum + p.servers, 0);
  return { pods, servers, onlyServer: servers === 1 ? rows[0]!.only_server : null };
}

/** The smallest view holding all the job's dies, as the job page draws it, and whether it draws aggregates. */
async function scopeOf(db: Database, clusterId: number, { pods, servers, onlyServer }: Awaited<ReturnType<typeof podCounts>>): Promise<JobScope> {
  if (servers === 1 && onlyServer !== null) return { level: "server", id: onlyServer, aggregated: false };
  if (pods.length === 1 && pods[0]!.superPodId !== null) return { level: "superpod", id: pods[0]!.superPodId, aggregated: false };
  const { rows } = await db.execute<{ n: string }>(sql`select count(*) as n from servers where cluster_id = ${clusterId}`);
  return { level: "cluster", id: null, aggregated: Number(rows[0]!.n) > CLUSTER_SERVER_CELLS_MAX };
}

/** What a job's placement adds up to: counts over its ranks, its ranks per super pod, and the view that holds them. */
interface JobPlacementSummary {
  counts: JobRankCounts;
  pods: JobPodCount[];
  scope: JobScope;
}

/**
 * Each job's placement summary, kept while the job's last update (every write that changes its placement sets it)
 * and its cluster's inventory revision hold: its counts and per-pod sums read every placed rank (150–200 ms for
 * 100,000 ranks, issue 21), for every load of the job page, its summary and its dies. At most 64 jobs; each is a few
 * hundred bytes and a row per super pod.
 */
const keptPlacements = new SharedAnswers<JobPlacementSummary>({ maxEntries: 64 });

/** The revision of a job's placement: its last update and its cluster's inventory revision. */
const placementVersion = sql<string>`concat_ws(':', ${jobs.updatedAt}, ${clusters.inventoryRevision})`;

function placementSummary(db: Database, id: number, clusterId: number, version: string): Promise<JobPlacementSummary> {
  return keptPlacements.get(String(id), () => version, async () => {
    const [counts, placement] = await Promise.all([rankCounts(db, id), podCounts(db, id, clusterId)]);
    const value = { counts, pods: placement.pods, scope: await scopeOf(db, clusterId, placement) };
    return { value, size: 1, maxAgeMs: Number.POSITIVE_INFINITY };
  });
}

/** The job page's data and `GET /api/v1/jobs/{id}`: the job, counts over its ranks, its scope and the first page. */
export async function loadJobSummary(db: Database, id: number): Promise<JobSummary | undefined> {
  const [row] = await db
    .select({
      ...jobListColumns,
      configVersion: jobs.configVersion,
      labels: jobs.labels,
      environment: jobs.environment,
      rankEnvironment: jobs.rankEnvironment,
      rankTableBytes: sql<number | null>`octet_length(${jobs.rankTableText})`,
      placementVersion,
    })
    .from(jobs)
    .innerJoin(clusters, eq(clusters.id, jobs.clusterId))
    .where(eq(jobs.id, id));
  if (!row) return undefined;
  const clusterId = row.clusterId as number;
  const [placed, ranks] = await Promise.all([placementSummary(db, id, clusterId, row.placementVersion), loadJobRanksPage(db, id, clusterId, { limit: JOB_RANKS_PAGE_DEFAULT })]);
  return {
    ...toJobListItem(row),
    configVersion: row.configVersion,
    labels: row.labels,
    environment: row.environment,
    rankEnvironment: row.rankEnvironment,
    rankTableBytes: row.rankTableBytes === null ? null : Number(row.rankTableBytes),
    counts: placed.counts,
    pods: placed.pods,
    scope: placed.scope,
    ranks,
  };
}

/**
 * The job's dies in its scope, for the topology overlay, kept per job while its placement's revision holds (see
 * keptPlacements): they are every placed rank of the job, read in its order, and every load of the job page asks for
 * them. At most 16 jobs and 64 MiB (a super pod's dies, some 60 bytes each).
 */
const keptDies = new SharedAnswers<JobDies>({ maxEntries: 16, maxSize: 64 * 2 ** 20 });

/** The job's dies in its scope for the topology overlay (see `JobDies`); undefined when there is no such job. */
export async function loadJobDies(db: Database, id: number): Promise<JobDies | undefined> {
  const [job] = await db.select({ clusterId: jobs.clusterId, version: placementVersion }).from(jobs).innerJoin(clusters, eq(clusters.id, jobs.clusterId)).where(eq(jobs.id, id));
  if (!job) return undefined;
  return keptDies.get(String(id), () => job.version, async () => {
    const { scope } = await placementSummary(db, id, job.clusterId, job.version);
    if (scope.aggregated) return { value: { scope, aggregated: true, dies: [] }, size: 0, maxAgeMs: Number.POSITIVE_INFINITY };
    const { rows } = await db.execute<{ die_key: string; rank: number | null; device_ip: string | null }>(sql`
      select jr.die_key, jr.rank, jr.device_ip from job_ranks jr where jr.job_id = ${id} and jr.die_key is not null order by jr.position`);
    const dies: JobDies["dies"] = rows.map((r) => [topologyDieId(r.die_key), r.rank, r.device_ip]);
    return { value: { scope, aggregated: false, dies }, size: 64 * dies.length, maxAgeMs: Number.POSITIVE_INFINITY };
  });
}

/** The job's rank table text as it came; undefined: no such job, null: none yet (an initializing ConfigMap). */
export async function loadJobRankTable(db: Database, id: number): Promise<string | null | undefined> {
  const [row] = await db.select({ text: jobs.rankTableText }).from(jobs).where(eq(jobs.id, id));
  return row?.text;
}
