import type { ChartOverlay, OverlayMark } from "@/components/topology/cell-painter";
import type { DiagnosisReport } from "@/lib/hccl-diagnose";
import type { JobDies } from "@/db/schema/job/ranks";

/**
 * The job drawn over the topology: its dies in the view (`GET /api/v1/jobs/{id}/dies`), the ranks on them (for
 * hover), and, with a diagnosis, its suspects (red) and the ranks that timed out (amber). A suspect is found by rank,
 * else by server and device, else by device IP.
 */
export function jobOverlay(jobDies: JobDies["dies"], report: DiagnosisReport | null): { overlay: ChartOverlay; rankOfDie: Map<string, number> } {
  const dies = new Map<string, OverlayMark>();
  const rankOfDie = new Map<string, number>();
  const dieOfRank = new Map<number, string>();
  const dieOfIp = new Map<string, string>();
  for (const [dieId, rank, deviceIp] of jobDies) {
    dies.set(dieId, "member");
    if (rank !== null) {
      rankOfDie.set(dieId, rank);
      dieOfRank.set(rank, dieId);
    }
    if (deviceIp) dieOfIp.set(deviceIp, dieId);
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
