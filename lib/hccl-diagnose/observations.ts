/** What the logs said, per rank, as the phase rules read it: shared by decide.ts and suspects.ts. */
import type { JobTable } from "./job-table";
import type { DiagnosisPhase, DiagnosisStats, Evidence, Suspect } from "./model";
import type { Finding, FindingKind } from "./patterns";

export interface Observation {
  finding: Finding;
  speakerRank?: number;
  evidence: Evidence;
}

export interface RankFacts {
  rank: number;
  files: string[];
  deviceId?: number;
  deviceIp?: string;
  hostIp?: string;
  serverId?: string;
  observations: Observation[];
}

export interface DecideInput {
  ranks: Map<number, RankFacts>;
  unattributed: Observation[];
  table: JobTable | undefined;
  /** The communicator's size from its entry lines (0 when unknown). */
  rankSize: number;
  root: number | undefined;
  stats: DiagnosisStats;
}

export interface Context extends DecideInput {
  all: Observation[];
  expected: number[];
  phase: DiagnosisPhase;
}

export const TIMEOUTS: ReadonlySet<FindingKind> = new Set(["root_timeout", "agent_timeout", "link_timeout", "notify_timeout", "init_failed"]);
export const OWN_ERRORS: ReadonlySet<FindingKind> = new Set(["config", "port_in_use", "error_cqe", "other_error", "consistency"]);

export function hasKind(facts: RankFacts | undefined, kinds: ReadonlySet<FindingKind> | FindingKind): boolean {
  if (facts === undefined) return false;
  return facts.observations.some((observation) => (typeof kinds === "string" ? observation.finding.kind === kinds : kinds.has(observation.finding.kind)));
}

export function placeOf(context: Pick<DecideInput, "ranks" | "table">, rank: number): Pick<Suspect, "deviceId" | "serverId" | "hostIp" | "deviceIp"> {
  const facts = context.ranks.get(rank);
  const table = context.table?.ranks.get(rank);
  const place = {
    deviceId: facts?.deviceId ?? table?.deviceId,
    serverId: table?.serverId ?? facts?.serverId,
    hostIp: table?.hostIp ?? facts?.hostIp,
    deviceIp: facts?.deviceIp ?? table?.deviceIp,
  };
  return Object.fromEntries(Object.entries(place).filter(([, value]) => value !== undefined));
}

export function firstEvidence(facts: RankFacts | undefined, kind: FindingKind | ReadonlySet<FindingKind>, count = 1): Evidence[] {
  if (facts === undefined) return [];
  return facts.observations
    .filter((observation) => (typeof kind === "string" ? observation.finding.kind === kind : kind.has(observation.finding.kind)))
    .slice(0, count)
    .map((observation) => observation.evidence);
}
