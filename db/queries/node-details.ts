import { createHash } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import type pg from "pg";
import { healthOf } from "@/lib/faults/health";
import { faultScopeOf, nodeDetails, recentFaultLimit, recentFaultWindowMs, type FaultScope, type SavedRankTable } from "@/lib/topology/details";
import type { ClusterHeader, TopologyIndex } from "@/lib/topology/inventory-index";
import type { NodeDetails, NodeKind, RecentFault } from "@/lib/topology/model";
import { ranksByIndexDie, ranksFromRankTable, type RanksByIndexDie } from "@/lib/topology/ranks";
import type { Database, DatabaseHandle } from "../client";
import { rankTableRevisions } from "../schema";
import { clusterFabricProfile } from "./fabric-build";
import { withStoredFabric } from "./fabric-details";
import { dieFaultOf, faultHealthSnapshot, type FaultEventRow } from "./faults";
import { decodableGzip, revisionText } from "./rank-tables";
import { topologyIndex } from "./topology";

/**
 * The newest fault events of a node's scope (lib/topology/details.ts faultScopeOf), at most `limit`, with how many
 * there are and how many are open: events that began since `since`, and older ones still open. Both halves are
 * indexed like the fault timeline's window (the BRIN on began_at, the partial index on open events), so the cost
 * follows the events of the window, not the table. Targets are matched by their stable keys, not the inventory refs
 * resolved at ingestion, so events outlive a re-seeded inventory.
 */
export async function recentNodeFaults(
  pool: pg.Pool,
  clusterId: number,
  scope: Pick<FaultScope, "targetKeys" | "linkEnds">,
  since: number,
  limit: number,
): Promise<{ total: number; open: number; events: RecentFault[] }> {
  const { rows } = await pool.query<FaultEventRow & { total: string; open: string }>(
    // One arm per index (a node's own targets; links by their first or their second end), so each reads only the
    // node's rows; `union` drops a link that has both ends in the node.
    `with hits as (
       select id, target_kind, target_key, kind, level, code, began_at, ended_at from fault_events
       where cluster_id = $1 and target_key = any($3::text[])
       union
       select id, target_kind, target_key, kind, level, code, began_at, ended_at from fault_events
       where cluster_id = $1 and target_kind = 'link' and split_part(substr(target_key, 6), '~', 1) = any($4::text[])
       union
       select id, target_kind, target_key, kind, level, code, began_at, ended_at from fault_events
       where cluster_id = $1 and target_kind = 'link' and split_part(target_key, '~', 2) = any($4::text[])
     )
     select f.id, f.target_kind, f.target_key, f.kind, f.level, f.code, f.began_at, f.ended_at,
       count(*) over () as total, count(*) filter (where f.ended_at is null) over () as open
     from hits f
     where f.began_at >= $2::timestamptz or f.ended_at is null
     order by f.began_at desc, f.id
     limit $5`,
    [clusterId, new Date(since).toISOString(), scope.targetKeys, scope.linkEnds, limit],
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    open: Number(rows[0]?.open ?? 0),
    events: rows.map(dieFaultOf),
  };
}

/**
 * The ranks of saved revisions over an index's dies (ranksByIndexDie), by revision id, per index: a revision never
 * changes, so each is parsed once per process and inventory revision. Every click on a node reads every table's, so
 * they must all fit: kept as maps by die id, bounded at 300,000 dies, five saved 100,000-rank tables were parsed again
 * on every click, 270 ms warm at 524,288 dies (issue 21). At 12 bytes a ranked die, 64 MiB holds 5.6 million.
 */
const maxCachedBytes = 64 * 2 ** 20;
type RevisionRanks = Map<number, RanksByIndexDie>;
const globalForRanks = globalThis as typeof globalThis & { rankscopeRevisionRanks?: WeakMap<TopologyIndex, RevisionRanks> };

let parsedRevisions = 0;
/** How many revisions this process has parsed so far: what the cache spares shows here. */
export function parsedRevisionCount(): number {
  return parsedRevisions;
}

/**
 * The latest revision of every saved rank table of the cluster or of no cluster, as the rank of each die of `index`.
 * Only revisions not read yet for this index are fetched and parsed; the rest cost one small query.
 */
export async function savedRankTables(db: Database, index: TopologyIndex): Promise<SavedRankTable[]> {
  const perIndex = (globalForRanks.rankscopeRevisionRanks ??= new WeakMap());
  let cache = perIndex.get(index);
  if (!cache) perIndex.set(index, (cache = new Map()));
  const heads = await db.execute<{ id: number; name: string; cluster_id: number | null; revision: number; revision_id: string }>(sql`
    select t.id, t.name, t.cluster_id, t.revision, r.id as revision_id
    from rank_tables t join rank_table_revisions r on r.rank_table_id = t.id and r.revision = t.revision
    where t.cluster_id = ${index.cluster.id} or t.cluster_id is null
    order by t.name, t.id`);
  const found = new Map<number, RanksByIndexDie>();
  const missing: number[] = [];
  for (const head of heads.rows) {
    const id = Number(head.revision_id);
    const ranks = cache.get(id);
    if (!ranks) {
      missing.push(id);
      continue;
    }
    found.set(id, ranks);
    cache.delete(id);
    cache.set(id, ranks); // most recently used last
  }
  if (missing.length > 0) {
    const texts = await db
      .select({ id: rankTableRevisions.id, text: rankTableRevisions.text, gzip: decodableGzip })
      .from(rankTableRevisions)
      .where(inArray(rankTableRevisions.id, missing));
    for (const row of texts) {
      parsedRevisions++;
      // A revision too long to be one string (a streamed save of a SuperCluster's table) names no ranks here.
      const text = revisionText(row.text, row.gzip);
      const ranks = ranksByIndexDie(index, (text === undefined ? undefined : ranksFromRankTable(text)?.ranks) ?? new Map());
      found.set(Number(row.id), ranks);
      cache.set(Number(row.id), ranks);
    }
    let bytes = [...cache.values()].reduce((sum, ranks) => sum + ranks.byteLength, 0);
    for (const [id, ranks] of cache) {
      if (bytes <= maxCachedBytes) break;
      cache.delete(id); // least recently used first
      bytes -= ranks.byteLength;
    }
  }
  return heads.rows.flatMap((head) => {
    const ranks = found.get(Number(head.revision_id));
    return ranks ? [{ table: { id: head.id, name: head.name, revision: head.revision, clusterId: head.cluster_id }, ranks }] : [];
  });
}

const minute = 60_000;

/**
 * Everything the details panel shows for one node: its fields and links from the cached inventory index, its live
 * health, its recent faults and its rank-table memberships, with a short version of what the database added (for
 * the ETag). Throws TopologyNotFoundError for an unknown node.
 */
export async function loadNodeDetails(
  handle: DatabaseHandle,
  cluster: ClusterHeader,
  kind: NodeKind,
  id: string,
  now = Date.now(),
): Promise<{ details: NodeDetails; version: string }> {
  const index = await topologyIndex(handle.db, cluster);
  const scope = faultScopeOf(index, kind, id);
  // Whole minutes, so that the answer (and its ETag) stays the same while nothing happens.
  const since = Math.floor((now - recentFaultWindowMs) / minute) * minute;
  const [health, recent, savedTables] = await Promise.all([
    faultHealthSnapshot(handle.pool, cluster.id),
    recentNodeFaults(handle.pool, cluster.id, scope, since, recentFaultLimit),
    savedRankTables(handle.db, index),
  ]);
  const faults = health.collected ? { since, ...recent, timeline: scope.timeline } : null;
  // A die's plane ports come from the cluster's hardware profile; a fabric node's stored parts from the fabric.
  const profile = kind === "die" || kind === "npu" ? await clusterFabricProfile(handle.db, cluster.id) : null;
  let details = nodeDetails(index, kind, id, { savedTables, faults, profile });
  details = await withStoredFabric(handle.db, cluster.id, index, kind, id, details);
  if (health.collected) details.node = { ...details.node, health: healthOf(details.node, health.faults) };
  const fabricPart = kind === "plane" || kind === "switch" || kind === "die" || kind === "npu" ? [details.node, details.planePorts, details.impact] : null;
  const version = createHash("sha256").update(JSON.stringify([health.version, faults, details.rankTables, fabricPart])).digest("base64url").slice(0, 16);
  return { details, version };
}
