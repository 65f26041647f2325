/**
 * What each job binds on each host and NIC, and why: the port model. Host plane: HCCL_HOST_SOCKET_PORT_RANGE when set
 * (it overrides HCCL_IF_BASE_PORT, envref_07_0143), else the HCCL_IF_BASE_PORT block (16 or 32 ports by CANN version,
 * constants.ts), the rank table's host_port per rank, MASTER_PORT on the master's host. NPU plane (each die's NIC):
 * the rank table's device_port / backup_device_port for rank-table jobs, else HCCL_NPU_SOCKET_PORT_RANGE, else 16666.
 */
import type { JobState } from "@/lib/jobs/model";
import {
  CANN_VERSION_VARIABLE,
  HCCL_IF_BASE_PORT_DEFAULT,
  HCCL_IF_BASE_PORT_MAX,
  HCCL_IF_BASE_PORT_MIN,
  HCCL_IF_PORTS_NEW,
  HCCL_IF_PORTS_NEW_SINCE,
  HCCL_IF_PORTS_OLD,
  HCCL_NPU_SOCKET_PORT_DEFAULT,
  HOST_SOCKET_VARIABLE,
  IF_BASE_VARIABLE,
  MASTER_PORT_DEFAULT,
  MASTER_PORT_VARIABLE,
  MAX_PORT,
  NPU_SOCKET_VARIABLE,
} from "./constants";
import type { Lifetime, PortBinding, PortJob, PortRank, PortSource } from "./model";
import { parsePortList, PortListError, type PortList } from "./ranges";

/** How many ports HCCL takes from HCCL_IF_BASE_PORT for a CANN version ("8.0.RC3", "8.2.RC1", "8.5.0"); unknown → 32. */
export function ifPortSpan(cannVersion: string | undefined): number {
  const match = cannVersion === undefined ? null : /^(\d+)\.(\d+)/.exec(cannVersion.trim());
  if (!match) return HCCL_IF_PORTS_NEW;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const [newMajor, newMinor] = HCCL_IF_PORTS_NEW_SINCE;
  return major > newMajor || (major === newMajor && minor >= newMinor) ? HCCL_IF_PORTS_NEW : HCCL_IF_PORTS_OLD;
}

const endedStates: readonly JobState[] = ["succeeded", "failed"];

/** When a job holds its ports: from its start (a pending job from now) to its end (open while it runs). */
export function lifetimeOf(job: Pick<PortJob, "state" | "startedAt" | "endedAt">, now: number): Lifetime {
  const from = job.startedAt ?? now;
  const to = job.endedAt ?? (endedStates.includes(job.state) ? from : Number.POSITIVE_INFINITY);
  return { from, to };
}

export const lifetimesOverlap = (a: Lifetime, b: Lifetime): boolean => a.from < b.to && b.from < a.to;

/** A variable whose value HCCL would refuse (EI0001): kept and reported, the job's other ports still modelled. */
export interface VariableProblem {
  jobId: number;
  jobName: string;
  variable: string;
  value: string;
  reason: string;
  ranks: number[];
}

export interface JobPorts {
  bindings: PortBinding[];
  problems: VariableProblem[];
  /** Processes per die (NIC scope → ranks), for the range-size check. */
  processesPerNic: Map<string, number[]>;
}

export const envOf = (job: PortJob, rank: PortRank): Record<string, string> =>
  rank.environment ? { ...job.environment, ...rank.environment } : job.environment;

const nicScope = (rank: Pick<PortRank, "deviceIp" | "dieId">): string | null =>
  rank.deviceIp ? `nic:${rank.deviceIp}` : rank.dieId ? `nic:${rank.dieId}` : null;
const hostScope = (serverId: string): string => `host:${serverId}`;

function rankIds(ranks: readonly PortRank[]): number[] {
  const out: number[] = [];
  for (const r of ranks) if (r.rank !== null) out.push(r.rank);
  return out;
}

/** The rank that hosts MASTER_ADDR's store: rank 0, else the lowest placed rank. */
function masterRank(job: PortJob): PortRank | undefined {
  const placed = job.ranks.filter((r) => r.serverId !== null);
  return placed.find((r) => r.rank === 0) ?? [...placed].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity))[0];
}

export function jobPorts(job: PortJob): JobPorts {
  const bindings: PortBinding[] = [];
  const problems: VariableProblem[] = [];
  const processesPerNic = new Map<string, number[]>();
  const base = { jobId: job.id, jobName: job.name };
  // An object literal of one shape (no spread): this runs for every rank of every job, and a spread made it the
  // check's hottest line (scripts/bench/ports.ts).
  const push = (serverId: string, plane: "host" | "npu", scope: string, from: number, to: number, source: PortSource, defaulted: boolean, ranks: number[], shared: boolean) =>
    bindings.push({ jobId: job.id, jobName: job.name, serverId, plane, scope, ports: { from, to }, source, defaulted, ranks, shared });

  const listOf = (variable: string, value: string | undefined, ranks: readonly PortRank[]): PortList | null | undefined => {
    if (value === undefined) return undefined;
    try {
      return parsePortList(value);
    } catch (error) {
      if (!(error instanceof PortListError)) throw error;
      problems.push({ ...base, variable, value, reason: error.message, ranks: rankIds(ranks) });
      return null;
    }
  };

  const byHost = new Map<string, PortRank[]>();
  for (const rank of job.ranks) {
    if (rank.serverId === null) continue;
    const list = byHost.get(rank.serverId);
    if (list) list.push(rank);
    else byHost.set(rank.serverId, [rank]);
  }

  for (const [serverId, ranks] of byHost) {
    const scope = hostScope(serverId);
    const env = envOf(job, ranks[0]!);
    const hostList = listOf(HOST_SOCKET_VARIABLE, env[HOST_SOCKET_VARIABLE], ranks);
    if (hostList?.kind === "ports") {
      for (const r of hostList.ranges) push(serverId, "host", scope, r.from, r.to, HOST_SOCKET_VARIABLE, false, rankIds(ranks), true);
    } else if (hostList === undefined) {
      const span = ifPortSpan(env[CANN_VERSION_VARIABLE]);
      const given = env[IF_BASE_VARIABLE];
      let start = HCCL_IF_BASE_PORT_DEFAULT;
      if (given !== undefined) {
        const value = Number(given.trim());
        if (/^\d{1,5}$/.test(given.trim()) && value >= HCCL_IF_BASE_PORT_MIN && value <= HCCL_IF_BASE_PORT_MAX) start = value;
        else problems.push({ ...base, variable: IF_BASE_VARIABLE, value: given, reason: `not an integer in [${HCCL_IF_BASE_PORT_MIN}, ${HCCL_IF_BASE_PORT_MAX}]`, ranks: rankIds(ranks) });
      }
      push(serverId, "host", scope, start, Math.min(start + span - 1, MAX_PORT), IF_BASE_VARIABLE, given === undefined, rankIds(ranks), true);
    }
    for (const rank of ranks) {
      if (job.hasRankTable && rank.hostPort != null) push(serverId, "host", scope, rank.hostPort, rank.hostPort, "host_port", false, rankIds([rank]), false);
    }
  }

  const master = masterRank(job);
  if (master?.serverId) {
    const given = job.environment[MASTER_PORT_VARIABLE];
    const value = given === undefined ? MASTER_PORT_DEFAULT : Number(given.trim());
    if (given !== undefined && !(/^\d{1,5}$/.test(given.trim()) && value >= 1 && value <= MAX_PORT)) {
      problems.push({ ...base, variable: MASTER_PORT_VARIABLE, value: given, reason: `not a port in [1, ${MAX_PORT}]`, ranks: rankIds([master]) });
    } else {
      push(master.serverId, "host", hostScope(master.serverId), value, value, MASTER_PORT_VARIABLE, given === undefined, rankIds([master]), false);
    }
  }

  const npuShared = new Map<string, { serverId: string; ranks: PortRank[]; list: PortList }>();
  for (const rank of job.ranks) {
    const scope = nicScope(rank);
    if (rank.serverId === null || scope === null) continue;
    const processes = processesPerNic.get(scope);
    if (processes) processes.push(rank.rank ?? -1);
    else processesPerNic.set(scope, [rank.rank ?? -1]);
    if (job.hasRankTable) {
      push(rank.serverId, "npu", scope, rank.devicePort ?? HCCL_NPU_SOCKET_PORT_DEFAULT, rank.devicePort ?? HCCL_NPU_SOCKET_PORT_DEFAULT, "device_port", rank.devicePort == null, rankIds([rank]), false);
      if (rank.backupDeviceIp && rank.backupDevicePort != null) {
        push(rank.serverId, "npu", `nic:${rank.backupDeviceIp}`, rank.backupDevicePort, rank.backupDevicePort, "backup_device_port", false, rankIds([rank]), false);
      }
      continue;
    }
    const list = listOf(NPU_SOCKET_VARIABLE, envOf(job, rank)[NPU_SOCKET_VARIABLE], [rank]);
    if (list === undefined) push(rank.serverId, "npu", scope, HCCL_NPU_SOCKET_PORT_DEFAULT, HCCL_NPU_SOCKET_PORT_DEFAULT, NPU_SOCKET_VARIABLE, true, rankIds([rank]), false);
    else if (list?.kind === "ports") {
      const entry = npuShared.get(scope);
      if (entry) entry.ranks.push(rank);
      else npuShared.set(scope, { serverId: rank.serverId, ranks: [rank], list });
    }
  }
  for (const [scope, { serverId, ranks, list }] of npuShared) {
    if (list.kind !== "ports") continue;
    for (const r of list.ranges) push(serverId, "npu", scope, r.from, r.to, NPU_SOCKET_VARIABLE, false, rankIds(ranks), true);
  }
  return { bindings, problems, processesPerNic };
}
