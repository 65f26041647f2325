/**
 * The ports page's host × port-range map: the port space cut into the bands jobs actually bind (overlapping ranges
 * of every host merged), at most `max` of them (the closest neighbours merged first), and per host and band who holds
 * it and whether it is in conflict. Only the rows on screen are cut into cells, so 1,024 hosts cost nothing.
 */
import type { PortHostRow } from "./report";
import type { PortRange } from "./ranges";

export function portBands(rows: readonly PortHostRow[], max = 12): PortRange[] {
  const ranges = rows.flatMap((r) => r.bindings.map((b) => b.ports)).sort((a, b) => a.from - b.from);
  const bands: PortRange[] = [];
  for (const r of ranges) {
    const last = bands.at(-1);
    if (last && r.from <= last.to) last.to = Math.max(last.to, r.to);
    else bands.push({ from: r.from, to: r.to });
  }
  while (bands.length > max) {
    let closest = 1;
    for (let i = 2; i < bands.length; i++) if (bands[i]!.from - bands[i - 1]!.to < bands[closest]!.from - bands[closest - 1]!.to) closest = i;
    bands[closest - 1]!.to = bands[closest]!.to;
    bands.splice(closest, 1);
  }
  return bands;
}

export interface MapHolder {
  jobId: number;
  jobName: string;
  conflict: boolean;
  /** What binds it (HCCL_IF_BASE_PORT, device_port …) and the exact ports. */
  uses: { source: string; ports: PortRange; plane: "host" | "npu" }[];
}

/** Who holds each band on one host (jobs in order of first port), conflicts marked. */
export function mapCells(row: PortHostRow, bands: readonly PortRange[]): MapHolder[][] {
  return bands.map((band) => {
    const byJob = new Map<number, MapHolder>();
    for (const b of row.bindings) {
      if (b.ports.to < band.from || b.ports.from > band.to) continue;
      let holder = byJob.get(b.jobId);
      if (!holder) byJob.set(b.jobId, (holder = { jobId: b.jobId, jobName: b.jobName, conflict: false, uses: [] }));
      holder.conflict ||= b.conflict;
      if (!holder.uses.some((u) => u.source === b.source && u.ports.from === b.ports.from && u.ports.to === b.ports.to)) holder.uses.push({ source: b.source, ports: b.ports, plane: b.plane });
    }
    return [...byJob.values()];
  });
}

export const rowHasConflict = (row: PortHostRow): boolean => row.bindings.some((b) => b.conflict);

/** The jobs that hold anything on the rows (id, name), by name. */
export function jobsOf(rows: readonly PortHostRow[]): [number, string][] {
  const names = new Map<number, string>();
  for (const h of rows) for (const b of h.bindings) names.set(b.jobId, b.jobName);
  return [...names].sort((a, b) => a[1].localeCompare(b[1]));
}
