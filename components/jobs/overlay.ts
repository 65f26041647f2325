import type { ChartOverlay, OverlayMark } from "@/components/topology/cell-painter";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import type { JobRankInfo } from "@/db/schema/job/validation";

/**
 * The job drawn over the topology: its dies, the ranks on them (for hover), and, with a diagnosis, its suspects (red)
 * and the ranks that timed out (amber). A suspect is found by rank, else by server and device, else by device IP.
 */
export function jobOverlay(ranks: readonly JobRankInfo[], report: DiagnosisReport | null): { overlay: ChartOverlay; rankOfDie: Map<string, number> } {
  const dies = new Map<string, OverlayMark>();
  const rankOfDie = new Map<string, number>();
  const dieOfRank = new Map<number, string>();
  const dieOfIp = new Map<string, string>();
  for (const r of ranks) {
    if (r.dieId === null) continue;
    dies.set(r.dieId, "member");
    if (r.rank !== null) {
      rankOfDie.set(r.dieId, r.rank);
      dieOfRank.set(r.rank, r.dieId);
    }
    if (r.deviceIp) dieOfIp.set(r.deviceIp, r.dieId);
  }
  if (report) {
    for (const r of report.ranks) {
      const die = dieOfRank.get(r.rank);
      if (die && r.status === "timeout") dies.set(die, "timeout");
    }
    for (const s of report.suspects) {
      const byServer = s.serverId !== undefined && s.deviceId !== undefined ? `${s.serverId}/d${s.deviceId}` : undefined;
      const die = (s.rank !== undefined ? dieOfRank.get(s.rank) : undefined) ?? (byServer && dies.has(byServer) ? byServer : undefined) ?? (s.deviceIp ? dieOfIp.get(s.deviceIp) : undefined);
      if (die) dies.set(die, "suspect");
    }
  }
  return { overlay: { dies }, rankOfDie };
}

/** The servers a job's dies are on. */
export function jobServers(ranks: readonly JobRankInfo[]): string[] {
  return [...new Set(ranks.flatMap((r) => (r.dieId === null ? [] : [r.dieId.slice(0, r.dieId.lastIndexOf("/d"))])))];
}
