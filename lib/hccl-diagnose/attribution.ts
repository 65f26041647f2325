import type { Identity } from "./identity";
import type { JobTable } from "./job-table";
import type { Observation, RankFacts } from "./observations";

/** One file fed to the diagnoser: who speaks in it (as far as its path and lines tell so far) and what it observed. */
export interface FileState {
  path: string;
  identity: Identity;
  rankWeight: number;
  observations: Observation[];
  dropped: number;
}

/** Merges what a line says about the file's speaker; the rank comes from the surest source seen. */
export function learnIdentity(file: FileState, identity: Identity): void {
  const target = file.identity;
  const weight = identity.weight ?? 0;
  if (identity.rank !== undefined && weight > file.rankWeight) {
    target.rank = identity.rank;
    file.rankWeight = weight;
    if (identity.rankSize !== undefined) {
      target.rankSize = identity.rankSize;
      target.weight = weight;
    }
  }
  if (identity.deviceId !== undefined && (target.deviceId === undefined || weight >= 4)) target.deviceId = identity.deviceId;
  target.deviceIp ??= identity.deviceIp;
  target.hostIp ??= identity.hostIp;
  if (identity.root) target.root = true;
}

/** A file's rank from the job's rank table: by its device IP, else by its server (or host IP) and device id. */
function rankFromTable(table: JobTable | undefined, identity: Identity): number | undefined {
  if (table === undefined) return undefined;
  if (identity.deviceIp !== undefined) {
    const rank = table.byDeviceIp.get(identity.deviceIp);
    if (rank !== undefined) return rank;
  }
  if (identity.deviceId === undefined) return undefined;
  for (const name of [identity.serverId, identity.hostIp]) {
    const rank = name === undefined ? undefined : table.byServerDevice.get(`${name}/${identity.deviceId}`);
    if (rank !== undefined) return rank;
  }
  return undefined;
}

/** A process writes `run/plog/plog-<pid>_…` (INFO: who it is) and `debug/plog/plog-<pid>_…` (its errors) in the same
 *  log root (CANN log layout, hicann/hccl notify_wait_timeout_EI0002.md); the files of one pid share one identity. */
function shareProcessIdentity(files: FileState[]): void {
  const processes = new Map<string, FileState[]>();
  for (const file of files) {
    const pid = /plog-(\d+)_[^/\\]*$/.exec(file.path)?.[1];
    if (pid === undefined) continue;
    const root = file.path.replace(/[/\\](?:run|debug)[/\\]plog[/\\][^/\\]*$|[/\\][^/\\]*$|^[^/\\]*$/, "");
    const key = `${root}|${pid}`;
    processes.set(key, [...(processes.get(key) ?? []), file]);
  }
  for (const group of processes.values()) {
    if (group.length < 2) continue;
    const best = group.reduce((a, b) => (b.rankWeight > a.rankWeight ? b : a));
    for (const file of group) {
      if (file === best) continue;
      if (best.rankWeight > file.rankWeight) {
        file.identity.rank = best.identity.rank;
        file.identity.rankSize = best.identity.rankSize;
        file.identity.weight = best.identity.weight;
        file.rankWeight = best.rankWeight;
      }
      file.identity.deviceId ??= best.identity.deviceId;
      file.identity.deviceIp ??= best.identity.deviceIp;
      file.identity.root ||= best.identity.root;
    }
  }
}

/**
 * Who each file and each of its observations speaks for: the observations by rank (with what the files tell of each
 * rank's device and server), those of no known rank, the job's rank size and its root rank.
 */
export function attributeFiles(
  files: FileState[],
  table: JobTable | undefined,
): { ranks: Map<number, RankFacts>; unattributed: Observation[]; rankSize: number; root: number | undefined } {
  const ranks = new Map<number, RankFacts>();
  const unattributed: Observation[] = [];
  const factsOf = (rank: number): RankFacts => {
    let facts = ranks.get(rank);
    if (facts === undefined) {
      facts = { rank, files: [], observations: [] };
      ranks.set(rank, facts);
    }
    return facts;
  };
  shareProcessIdentity(files);
  let rankSize = 0;
  let root: number | undefined;
  for (const file of files) {
    const identity = file.identity;
    if (identity.rankSize !== undefined && (identity.weight ?? 0) >= 5) rankSize = Math.max(rankSize, identity.rankSize);
    const fileRank = identity.rank ?? rankFromTable(table, identity);
    if (fileRank !== undefined) {
      const facts = factsOf(fileRank);
      facts.files.push(file.path);
      facts.deviceId ??= identity.deviceId;
      facts.deviceIp ??= identity.deviceIp;
      facts.hostIp ??= identity.hostIp;
      facts.serverId ??= identity.serverId;
      if (identity.root) root ??= fileRank;
    }
    for (const observation of file.observations) {
      const rank = observation.speakerRank ?? fileRank;
      if (rank === undefined) unattributed.push(observation);
      else {
        const facts = factsOf(rank);
        if (observation.speakerRank !== undefined && !facts.files.includes(file.path)) facts.files.push(file.path);
        facts.observations.push(observation);
      }
    }
  }
  return { ranks, unattributed, rankSize, root };
}
