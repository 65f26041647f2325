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
 * A table's ranks over an index's dies: the places (`IndexedDie.rank`) it ranks, ascending, with their ranks. 12 bytes
 * per ranked die whatever the cluster's size (a small job's table on a SuperCluster stays small), where a map by die
 * id took some 80.
 */
export class RanksByIndexDie {
  constructor(
    private readonly places: Int32Array,
    private readonly ranks: Float64Array,
  ) {}

  get byteLength(): number {
    return this.places.byteLength + this.ranks.byteLength;
  }

  /** The rank the table gives the die at `place`; undefined when it ranks none there. */
  rankAt(place: number): number | undefined {
    let low = 0;
    let high = this.places.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.places[middle]!;
      if (at === place) return this.ranks[middle];
      if (at < place) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
}

/** `ranks` (by die id) over the dies of `index`; dies the inventory lacks are left out (no node of the index shows them). */
export function ranksByIndexDie(index: TopologyIndex, ranks: ReadonlyMap<string, number>): RanksByIndexDie {
  const placed: [place: number, rank: number][] = [];
  for (const [id, rank] of ranks) {
    const place = index.rankOf(id);
    if (place >= 0) placed.push([place, rank]);
  }
  placed.sort((a, b) => a[0] - b[0]);
  return new RanksByIndexDie(Int32Array.from(placed, ([place]) => place), Float64Array.from(placed, ([, rank]) => rank));
}
