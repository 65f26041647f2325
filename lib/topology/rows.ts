import type { TopologyIndex } from "./inventory-index";
import { rackIndex, type Rack } from "./racks";

/**
 * Rows of racks: the level above the rack for a cluster of plain servers (no super pods) with more racks than a view
 * draws as aggregates (8,192 racks at 524,288 A2 NPUs: a 2.5 MB answer, 4.9 s to drawn; issue 21). The inventory
 * records neither racks nor rows, so a row is derived as a rack is (lib/topology/racks.ts): ROW_RACKS consecutive
 * racks in rack order, fixed-size blocks so that a row keeps its racks (and its id) when servers are added at the end.
 * ROW_RACKS is an Atlas 950 SuperPoD's compute racks (128 racks × 64 NPUs = 8,192 NPUs; lib/rank-table/generate-a5.ts):
 * a row holds as many NPUs as a super pod, and 524,288 plain NPUs draw 64 rows as the Atlas 950 SuperCluster of that
 * size draws 64 super pods. Racks keep their ids (`rack<k>`, numbered over the cluster), so a link to a rack or a
 * server still lands there; only the path gains the row.
 */
export const ROW_RACKS = 128;

export interface RackRow {
  /** `row<k>`: racks [k × ROW_RACKS, (k + 1) × ROW_RACKS) of the plain servers. */
  id: string;
  index: number;
  racks: Rack[];
  servers: number;
  npus: number;
  dies: number;
}

/** Consecutive blocks of ROW_RACKS racks; their counts are the sums of their racks'. */
export function groupIntoRows(racks: readonly Rack[]): RackRow[] {
  const rows: RackRow[] = [];
  for (let first = 0; first < racks.length; first += ROW_RACKS) {
    const members = racks.slice(first, first + ROW_RACKS);
    const index = rows.length;
    rows.push({
      id: `row${index}`,
      index,
      racks: members,
      servers: members.reduce((n, rack) => n + rack.servers.length, 0),
      npus: members.reduce((n, rack) => n + rack.npus, 0),
      dies: members.reduce((n, rack) => n + rack.dies, 0),
    });
  }
  return rows;
}

interface RowIndex {
  /** The plain servers' rows, empty when their racks (if any) are few enough to draw one by one. */
  rows: RackRow[];
  byId: Map<string, RackRow>;
}

const rowIndexes = new WeakMap<TopologyIndex, RowIndex>();

/** The rows of the plain servers' racks, derived once per index (kept per inventory revision). */
export function rowIndex(index: TopologyIndex): RowIndex {
  let found = rowIndexes.get(index);
  if (found) return found;
  const racks = rackIndex(index).byPod.get(null) ?? [];
  // One row's worth of racks or fewer: the racks themselves are the cluster view's aggregates.
  const rows = racks.length > ROW_RACKS ? groupIntoRows(racks) : [];
  found = { rows, byId: new Map(rows.map((row) => [row.id, row])) };
  rowIndexes.set(index, found);
  return found;
}

/** The row a rack is drawn in (racks of plain servers numbered in order: rack k is in row k / ROW_RACKS), if any. */
export function rowOfRack(index: TopologyIndex, rack: Rack): RackRow | undefined {
  if (rack.pod !== null) return undefined;
  return rowIndex(index).rows[Math.floor(rack.index / ROW_RACKS)];
}

/**
 * The row id of a plain rack's id (`rack<k>` is in `row<k / ROW_RACKS>`), null for a super pod's rack: what a link to
 * a rack lands on when the cluster view draws rows (lib/topology/url.ts landingViewOf), without the index.
 */
export function rowIdOfRackId(rackId: string): string | null {
  const k = /^rack(\d+)$/.exec(rackId)?.[1];
  return k === undefined ? null : `row${Math.floor(Number(k) / ROW_RACKS)}`;
}

export function rowLabel(row: RackRow): string {
  const first = row.racks[0]?.servers[0]?.id ?? "";
  const last = row.racks.at(-1)?.servers.at(-1)?.id ?? "";
  return `Row ${row.index} · ${first === last ? first : `${first} – ${last}`}`;
}
