import type pg from "pg";
import type { FaultLevel } from "@/lib/faults/levels";
import type { FaultKind, TargetKind } from "@/lib/faults/model";

/** A fault event on a die, or on a link with that die at one end. Times in ms. */
export interface DieFault {
  id: string;
  targetKind: TargetKind;
  targetKey: string;
  kind: FaultKind;
  level: FaultLevel;
  code: string | null;
  beganAt: number;
  endedAt: number | null;
}

/**
 * The events of some kinds that hit these dies (`<server>/<device>`: the die itself, or a link at it) and overlapped
 * `from`..`to`, oldest first, at most `limit`. One arm per index, as a node's recent faults read them
 * (db/queries/node-details.ts recentNodeFaults): the target index for the dies, the two link-end indexes for links.
 */
export async function faultsOnDies(pool: pg.Pool, clusterId: number, dies: readonly string[], kinds: readonly FaultKind[], from: number, to: number, limit: number): Promise<DieFault[]> {
  if (dies.length === 0 || kinds.length === 0) return [];
  const window = "kind = any($4::fault_kind[]) and began_at <= $6::timestamptz and (ended_at is null or ended_at >= $5::timestamptz)";
  const columns = "id, target_kind, target_key, kind, level, code, began_at, ended_at";
  const { rows } = await pool.query<FaultEventRow>(
    `select * from (
       select ${columns} from fault_events where cluster_id = $1 and target_key = any($2::text[]) and ${window}
       union
       select ${columns} from fault_events where cluster_id = $1 and target_kind = 'link' and split_part(substr(target_key, 6), '~', 1) = any($3::text[]) and ${window}
       union
       select ${columns} from fault_events where cluster_id = $1 and target_kind = 'link' and split_part(target_key, '~', 2) = any($3::text[]) and ${window}
     ) f order by began_at, id limit $7`,
    [clusterId, dies.map((die) => `die:${die}`), dies, kinds, new Date(from).toISOString(), new Date(to).toISOString(), limit],
  );
  return rows.map(dieFaultOf);
}

/** A fault_events row as these reads select it (`id, target_kind, …, ended_at`). */
export interface FaultEventRow {
  id: string;
  target_kind: TargetKind;
  target_key: string;
  kind: FaultKind;
  level: FaultLevel;
  code: string | null;
  began_at: Date;
  ended_at: Date | null;
}

/** The row as the pages and reports see an event: camel case, times in ms. */
export function dieFaultOf(row: FaultEventRow): DieFault {
  return {
    id: row.id,
    targetKind: row.target_kind,
    targetKey: row.target_key,
    kind: row.kind,
    level: row.level,
    code: row.code,
    beganAt: row.began_at.getTime(),
    endedAt: row.ended_at?.getTime() ?? null,
  };
}
