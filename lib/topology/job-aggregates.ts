import type { HealthOverlay } from "./health-overlay";
import type { TopologyIndex } from "./inventory-index";
import type { TopologyNode, TopologyView } from "./model";
import { rackIndex } from "./racks";

/**
 * A job drawn over an aggregated view: per aggregate (a super pod, rack or server drawn as one cell), how many of its
 * dies the job has and how many of those are faulty or degraded. The job's dies are otherwise drawn die by die in
 * the browser (components/jobs/overlay.ts); an aggregate holds no dies, so without this the job would vanish from it.
 * Costs the job's dies, never the cluster's size. `dieIds`: the job's dies (`<server>/d<device>`); unknown ids are
 * counted in `unplaced`, not dropped silently.
 */
export function withJobAggregates(view: TopologyView, index: TopologyIndex, dieIds: Iterable<string>, health: HealthOverlay): { view: TopologyView; unplaced: number } {
  const aggregates = new Map<string, TopologyNode>();
  for (const node of view.nodes) if (node.aggregated) aggregates.set(`${node.kind}:${node.id}`, node);
  if (aggregates.size === 0) return { view, unplaced: 0 };
  const racks = rackIndex(index).ofServer;
  const tallies = new Map<string, NonNullable<TopologyNode["job"]>>();
  let unplaced = 0;
  for (const id of new Set(dieIds)) {
    const die = index.dieById.get(id);
    if (!die) {
      unplaced++;
      continue;
    }
    const rack = racks.get(die.server);
    const keys = [`server:${die.server.id}`, ...(rack ? [`rack:${rack.id}`] : []), ...(die.server.pod ? [`superpod:${die.server.pod.id}`] : [])];
    const key = keys.find((k) => aggregates.has(k));
    if (!key) continue;
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = { dies: 0, faulty: 0, degraded: 0 }));
    tally.dies++;
    const tone = health.die(die);
    if (tone === "faulty") tally.faulty++;
    else if (tone === "degraded") tally.degraded++;
  }
  const nodes = view.nodes.map((node) => {
    const job = node.aggregated ? tallies.get(`${node.kind}:${node.id}`) : undefined;
    return job ? { ...node, job } : node;
  });
  return { view: { ...view, nodes }, unplaced };
}
