/** Fixture generator: a failed job's logs in the real formats with a known culprit (demo seed, bench, tests). */
export interface FailedJobScenario {
  phase: "init" | "load" | "execute" | "port_in_use" | "config";
  ranks: number;
  ranksPerServer?: number;
  culpritRank: number;
  /** Approximate total size in bytes of the logs (padding with realistic INFO lines). */
  targetBytes?: number;
  seed?: number;
}
export interface GeneratedLogs {
  /** Relative paths (node directory / plog file) and their text, produced lazily so 200 MB is never held. */
  files(): Iterable<{ path: string; text: string }>;
  rankTable: string;
  culprit: { rank: number; serverId: string; deviceId: number; deviceIp: string; hostIp: string };
}
export function generateFailedJobLogs(scenario: FailedJobScenario): GeneratedLogs {
  void scenario;
  throw new Error("not implemented yet");
}
