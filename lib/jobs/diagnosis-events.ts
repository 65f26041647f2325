/**
 * A diagnosis's suspects as fault events of kind `hccl-error` (POST /api/v1/fault-events items), placed on the die or
 * link the job's placement gives them, so the timeline and the topology show where the failure started. An event's
 * id is derived from the job, its target and the phase: re-running the diagnosis with more logs records nothing twice.
 */
import type { DiagnosisPhase, DiagnosisReport, Suspect } from "@/lib/hccl-diagnose";
import type { HcclPhaseId } from "@/lib/faults/model";

export interface JobRankPlace {
  rank: number | null;
  deviceIp: string | null;
  hostIp: string | null;
  /** `<server>/<device>` of the die, or null when unmatched. */
  dieKey: string | null;
}

export interface DiagnosisEventInput {
  id: string;
  cluster: string;
  kind: "hccl-error";
  source: "hccl-log";
  target: { server?: string; die?: number; peer?: { server: string; die: number } };
  code?: string;
  phase?: HcclPhaseId;
  beganAt: number;
  endedAt: number;
  job: string;
  rank?: number;
  message: string;
}

const phases: Partial<Record<DiagnosisPhase, HcclPhaseId>> = { init: "communicator-init", load: "operator-loading", execute: "execution" };

const split = (dieKey: string) => {
  const at = dieKey.lastIndexOf("/");
  return { server: dieKey.slice(0, at), die: Number(dieKey.slice(at + 1)) };
};

/** The die a suspect names: by rank through the placement, else by server (its id, or the host IP logs give as
 *  "server") and device, else by device IP. */
export function dieOf(suspect: Pick<Suspect, "rank" | "serverId" | "deviceId" | "deviceIp">, ranks: readonly JobRankPlace[]): { server: string; die: number } | null {
  if (suspect.rank !== undefined) {
    const placed = ranks.find((r) => r.rank === suspect.rank && r.dieKey !== null);
    if (placed) return split(placed.dieKey!);
  }
  if (suspect.serverId !== undefined && suspect.deviceId !== undefined) {
    const key = `${suspect.serverId}/${suspect.deviceId}`;
    if (ranks.some((r) => r.dieKey === key)) return split(key);
    const byHost = ranks.find((r) => r.hostIp === suspect.serverId && r.dieKey !== null && split(r.dieKey).die === suspect.deviceId);
    if (byHost) return split(byHost.dieKey!);
  }
  if (suspect.deviceIp !== undefined) {
    const placed = ranks.find((r) => r.deviceIp === suspect.deviceIp && r.dieKey !== null);
    if (placed) return split(placed.dieKey!);
  }
  return null;
}

/** The HCCL error code of a suspect's evidence (EI0006, EJ0003, …), if a line carries one. */
function codeOf(suspect: Suspect): string | undefined {
  for (const evidence of suspect.evidence) {
    const match = /\bE[IJ]\d{4}\b/.exec(evidence.text);
    if (match) return match[0];
  }
  return undefined;
}

export function diagnosisEvents(report: DiagnosisReport, job: { id: number; cluster: string; name: string; at: number }, ranks: readonly JobRankPlace[]): { events: DiagnosisEventInput[]; unplaced: number } {
  const events: DiagnosisEventInput[] = [];
  let unplaced = 0;
  const phase = phases[report.phase];
  for (const suspect of report.suspects) {
    const die = dieOf(suspect, ranks);
    if (!die) {
      unplaced++;
      continue;
    }
    const peer = suspect.peer ? dieOf({ rank: suspect.peer.rank, deviceIp: suspect.peer.deviceIp }, ranks) : null;
    const target = suspect.kind === "link" && peer ? { ...die, peer } : die;
    const targetName = peer && suspect.kind === "link" ? `${die.server}/${die.die}~${peer.server}/${peer.die}` : `${die.server}/${die.die}`;
    const code = codeOf(suspect);
    events.push({
      id: `job${job.id}:${report.phase}:${suspect.kind}:${targetName}`,
      cluster: job.cluster,
      kind: "hccl-error",
      source: "hccl-log",
      target,
      ...(code ? { code } : {}),
      ...(phase ? { phase } : {}),
      beganAt: job.at,
      endedAt: job.at,
      job: job.name,
      ...(suspect.rank !== undefined ? { rank: suspect.rank } : {}),
      message: `${suspect.reason.en} / ${suspect.reason.zh}`.slice(0, 2000),
    });
  }
  return { events, unplaced };
}
