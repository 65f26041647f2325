import { isJsonObject, parseRankTable } from "@/lib/rank-table";
import { dieNodeId, type TopologyIndex } from "./inventory-index";

export interface RankAssignment {
  /** Rank per die id (`<server_id>/d<device_id>`). */
  ranks: Map<string, number>;
  /** Die id per rank, for finding a die by rank. */
  dies: Map<number, string>;
  devices: number;
}

/**
 * The ranks a rank table gives the dies: read leniently (what HCCL would read), since the table's own problems are the
 * rank-table checker's business. Returns null when the text is not a rank table at all.
 */
export function ranksFromRankTable(text: string): RankAssignment | null {
  const value = parseRankTable(text).value;
  if (!isJsonObject(value) || !Array.isArray(value.server_list)) return null;
  const ranks = new Map<string, number>();
  const dies = new Map<number, string>();
  let devices = 0;
  for (const server of value.server_list) {
    if (!isJsonObject(server) || !Array.isArray(server.device)) continue;
    const serverId = String(server.server_id ?? "");
    for (const device of server.device) {
      if (!isJsonObject(device)) continue;
      const deviceId = Number(device.device_id);
      const rank = Number(device.rank_id);
      if (!serverId || !Number.isInteger(deviceId) || !Number.isInteger(rank)) continue;
      devices++;
      const id = dieNodeId(serverId, deviceId);
      ranks.set(id, rank);
      if (!dies.has(rank)) dies.set(rank, id);
    }
  }
  return { ranks, dies, devices };
}

/**
 * A table's ranks over an index's dies, by each die's place in it (`IndexedDie.rank`), NaN for a die the table does
 * not rank; dies of the table that the inventory lacks are left out (no node of the index shows them). A compact
 * form for keeping many tables: 8 bytes per die of the cluster, where a map by die id took some 80 per ranked die.
 */
export function ranksByIndexDie(index: TopologyIndex, ranks: ReadonlyMap<string, number>): Float64Array {
  const byDie = new Float64Array(index.dieCount).fill(NaN);
  for (const [id, rank] of ranks) {
    const at = index.rankOf(id);
    if (at >= 0) byDie[at] = rank;
  }
  return byDie;
}
