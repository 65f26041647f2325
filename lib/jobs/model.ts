/**
 * A training job as Rankscope records it: where it runs (each rank → a die of the inventory), when, in which state,
 * with which rank table and environment. Jobs come from the Ascend Operator's rings-config ConfigMap, a saved rank
 * table, or the API.
 */
export const jobStates = ["pending", "running", "succeeded", "failed", "unknown"] as const;
export type JobState = (typeof jobStates)[number];

export const jobSources = ["rings-config", "rank-table", "api"] as const;
export type JobSource = (typeof jobSources)[number];

/** One device of the job's rank table, as the table names it. */
export interface RankEntry {
  /** `rank_id` as a number; null when the table does not give a usable one. */
  rank: number | null;
  serverId: string | null;
  hostIp: string | null;
  deviceId: number | null;
  deviceIp: string | null;
}

/** Why a rank did not land on a die of the inventory. */
export const unmatchedReasons = ["no-rank", "unknown-server", "unknown-device"] as const;
export type UnmatchedReason = (typeof unmatchedReasons)[number];

/** How a rank was matched to its die. */
export const matchKinds = ["server-and-device", "device-ip"] as const;
export type MatchKind = (typeof matchKinds)[number];

/** A rank and the die it runs on, or why none was found (kept, never dropped). */
export interface PlacedRank extends RankEntry {
  /** The die, `<server_id>/d<device_id>` of the inventory (the topology's die id), or null when unmatched. */
  dieId: string | null;
  match: MatchKind | null;
  unmatched: UnmatchedReason | null;
  /** The table's device IP differs from the inventory's for the matched die. */
  deviceIpDiffers: boolean;
}

export interface PlacementSummary {
  ranks: number;
  placed: number;
  unmatched: number;
  servers: number;
}
