import type { HealthOverlay } from "./health-overlay";
import type { IndexedServer, TopologyIndex } from "./inventory-index";
import type { TopologyNode, TopologyView } from "./model";
import { rackIndex } from "./racks";
import { rowIndex } from "./rows";

/**
 * A job's dies on one topology index, as the index's ranks (issue 21: a job on 100,000 dies): built once per job
 * revision and inventory revision (db/queries/topology-view.ts keeps it), then every view the job is drawn over costs
 * a pass over a typed array, not 100,000 id lookups.
 */
export interface JobDieSet {
  /** The ranks of the job's dies in the index, each once. */
  ranks: Uint32Array;
  /** 1 at each rank the job has (the index's `dieCount` long). */
  member: Uint8Array;
  /** Ids the index does not know (distinct): counted, not dropped silently. */
  unplaced: number;
}

/** The set of `dieIds` (`<server>/d<device>`, repeats allowed) on `index`. */
export function jobDieSet(index: TopologyIndex, dieIds: Iterable<string>): JobDieSet {
  const member = new Uint8Array(index.dieCount);
  const ranks: number[] = [];
  const unknown = new Set<string>();
  for (const id of dieIds) {
    const rank = index.rankOf(id);
    if (rank < 0) unknown.add(id);
    else if (member[rank] === 0) {
      member[rank] = 1;
      ranks.push(rank);
    }
  }
  return { ranks: Uint32Array.from(ranks), member, unplaced: unknown.size };
}

/**
 * A job drawn over an aggregated view: per aggregate (a super pod, rack or server drawn as one cell), how many of its
 * dies the job has and how many of those are faulty or degraded. The job's dies are otherwise drawn die by die in
 * the browser (components/jobs/overlay.ts); an aggregate holds no dies, so without this the job would vanish from it.
 * A die counts in the most specific aggregate holding it (its server's, else its rack's, else its row's, else its
 * super pod's). Costs the view's aggregated servers, a pass over the job's ranks and the dies an open fault covers;
 * nothing per die object or id.
 */
export function withJobAggregates(view: TopologyView, index: TopologyIndex, dies: JobDieSet, health: HealthOverlay): { view: TopologyView; unplaced: number } {
  const aggregates = view.nodes.filter((node) => node.aggregated);
  if (aggregates.length === 0) return { view, unplaced: 0 };
  // Each server's aggregate (a place in `aggregates`), -1 for none: pods first, so a row, rack or server drawn as a cell
  // of its own takes its dies from the pod's.
  const slotOfServer = new Int32Array(index.servers.length).fill(-1);
  const racks = rackIndex(index).byId;
  const rows = rowIndex(index).byId;
  const serversOf = (node: TopologyNode): readonly (IndexedServer | undefined)[] => {
    if (node.kind === "superpod") return index.podById.get(node.id)?.servers ?? [];
    if (node.kind === "row") return rows.get(node.id)?.racks.flatMap((rack) => rack.servers) ?? [];
    if (node.kind === "rack") return racks.get(node.id)?.servers ?? [];
    return node.kind === "server" ? [index.serverById.get(node.id)] : [];
  };
  for (const kind of ["superpod", "row", "rack", "server"] as const) {
    aggregates.forEach((node, slot) => {
      if (node.kind !== kind) return;
      for (const server of serversOf(node)) if (server && server.dieCount > 0) slotOfServer[index.serverOfRank(server.firstRank)] = slot;
    });
  }
  const jobDies = new Uint32Array(aggregates.length);
  for (const rank of dies.ranks) {
    const slot = slotOfServer[index.serverOfRank(rank)]!;
    if (slot >= 0) jobDies[slot]!++;
  }
  // Every die no open fault covers is healthy (or unknown without fault data): only those covered can be faulty or degraded.
  const faulty = new Uint32Array(aggregates.length);
  const degraded = new Uint32Array(aggregates.length);
  for (const [die, tone] of health.covered) {
    if (dies.member[die.rank] === 0 || (tone !== "faulty" && tone !== "degraded")) continue;
    const slot = slotOfServer[index.serverOfRank(die.rank)]!;
    if (slot >= 0) (tone === "faulty" ? faulty : degraded)[slot]!++;
  }
  const jobOf = new Map<TopologyNode, NonNullable<TopologyNode["job"]>>();
  aggregates.forEach((node, slot) => {
    if (jobDies[slot]! > 0) jobOf.set(node, { dies: jobDies[slot]!, faulty: faulty[slot]!, degraded: degraded[slot]! });
  });
  const nodes = view.nodes.map((node) => {
    const job = jobOf.get(node);
    return job ? { ...node, job } : node;
  });
  return { view: { ...view, nodes }, unplaced: dies.unplaced };
}
