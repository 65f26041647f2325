/**
 * The port planner: given a cluster's running and pending jobs, the assignments (per job and host: HCCL_IF_BASE_PORT
 * or HCCL_HOST_SOCKET_PORT_RANGE, HCCL_NPU_SOCKET_PORT_RANGE, MASTER_PORT, the rank table's device_port,
 * backup_device_port, host_port) that collide nowhere and stay inside the policy. Running jobs are pinned unless the
 * caller names them in `move`; a job keeps every port that is free and allowed (fewest changes). On failover only the
 * moved ranks are planned and every other rank keeps its ports, the seed's KubeDL way: what the other ranks see stays
 * constant; a moved rank whose host block is taken on its new host gets a per-host value, not a job-wide one.
 */
import { CANN_VERSION_VARIABLE, HOST_SOCKET_VARIABLE, IF_BASE_VARIABLE, MASTER_PORT_VARIABLE, NPU_SOCKET_VARIABLE } from "./constants";
import { ifPortSpan, jobPorts, lifetimeOf } from "./bindings";
import { checkPorts, type PortCheckInput } from "./check";
import type { PortFinding } from "./findings";
import type { PortBinding, PortJob, PortPlane, PortSource } from "./model";
import { insideAny, type PortPolicy } from "./policy";
import { Occupancy } from "./occupancy";
import { formatRange, listSize, type PortRange } from "./ranges";

export interface PlanInput extends PortCheckInput {
  /** Running jobs the planner may move (ids); pending jobs are always planned. */
  move?: readonly number[];
  /** Running jobs some of whose ranks were re-placed (the job's ranks already show the new placement). */
  failover?: readonly { jobId: number; ranks: readonly number[] }[];
}

export interface PortChange {
  jobId: number;
  jobName: string;
  /** The host a per-host or per-rank change applies to; null for a job-wide variable. */
  serverId: string | null;
  rank: number | null;
  field: PortSource;
  from: string | null;
  to: string;
  reason: { en: string; zh: string };
}

export interface PortPlan {
  /** Every job with its planned ports applied (unplanned jobs as they were). */
  jobs: PortJob[];
  changes: PortChange[];
  /** What is still wrong after the plan (running jobs that conflict with each other and may not move, full ranges …). */
  findings: PortFinding[];
}

type Scope = { scope: string; serverId: string; plane: PortPlane };

const allowedFor = (policy: PortPolicy, source: PortSource): PortRange[] =>
  source === MASTER_PORT_VARIABLE ? policy.hostNetworkRanges : source === IF_BASE_VARIABLE || source === HOST_SOCKET_VARIABLE || source === "host_port" ? policy.hcclHostRanges : policy.hcclNpuRanges;

const scopeOf = (b: PortBinding): Scope => ({ scope: b.scope, serverId: b.serverId, plane: b.plane });

const cloneJob = (job: PortJob): PortJob => ({
  ...job,
  environment: { ...job.environment },
  ranks: job.ranks.map((r) => ({ ...r, environment: r.environment ? { ...r.environment } : undefined })),
});

class JobPlanner {
  readonly changes: PortChange[] = [];

  constructor(
    private readonly occupancy: Occupancy,
    private readonly policy: PortPolicy,
  ) {}

  private change(job: PortJob, field: PortSource, from: string | null, to: string, serverId: string | null, rank: number | null, blocker: PortRange | null) {
    const why = blocker
      ? { en: `${from ?? "unset"} is taken or blocked there (${formatRange(blocker)})`, zh: `${from ?? "未设置"} 已被占用或被策略禁止（${formatRange(blocker)}）` }
      : { en: `${from ?? "unset"} is outside the policy's ranges`, zh: `${from ?? "未设置"} 不在策略允许的范围内` };
    this.changes.push({ jobId: job.id, jobName: job.name, serverId, rank, field, from, to, reason: why });
  }

  /** Keeps `current` when free in every scope and allowed, else finds the lowest free block; holds what it returns. */
  private place(current: PortRange, size: number, source: PortSource, scopes: readonly Scope[]): { range: PortRange; blocker: PortRange | null } | null {
    const allowed = allowedFor(this.policy, source);
    const blocker = this.occupancy.blocker(current, scopes);
    if (blocker === null && listSize([current]) >= size && insideAny(current, allowed)) {
      for (const s of scopes) this.occupancy.hold(s.scope, current);
      return { range: current, blocker: null };
    }
    const start = this.occupancy.findFree(size, allowed, scopes);
    if (start === null) return null;
    const range = { from: start, to: start + size - 1 };
    for (const s of scopes) this.occupancy.hold(s.scope, range);
    return { range, blocker };
  }

  /** Plans the ranks in `planned` (all of a movable job, the moved ones of a failover); `perHost` for failovers. */
  plan(job: PortJob, planned: ReadonlySet<number | null>, perHost: boolean): void {
    const { bindings, processesPerNic } = jobPorts(job);
    const perNpu = Math.max(1, ...[...processesPerNic.values()].map((r) => r.length));
    const mine = bindings.filter((b) => b.ranks.length > 0 ? b.ranks.every((r) => planned.has(r)) : planned.has(null));
    const ranksOn = (serverId: string) => job.ranks.filter((r) => r.serverId === serverId && planned.has(r.rank));

    // Host blocks (HCCL_IF_BASE_PORT or HCCL_HOST_SOCKET_PORT_RANGE): one job-wide value, per host on a failover.
    for (const source of [IF_BASE_VARIABLE, HOST_SOCKET_VARIABLE] as const) {
      const blocks = mine.filter((b) => b.source === source);
      if (blocks.length === 0) continue;
      const size = source === IF_BASE_VARIABLE ? ifPortSpan(job.environment[CANN_VERSION_VARIABLE]) : Math.max(listSize([blocks[0]!.ports]), perNpu);
      const groups = perHost ? blocks.map((b) => [b]) : [blocks];
      for (const group of groups) {
        const current = group[0]!.ports;
        const placed = this.place(current, size, source, group.map(scopeOf));
        if (!placed) continue;
        const value = source === IF_BASE_VARIABLE ? String(placed.range.from) : formatRange(placed.range);
        const before = source === IF_BASE_VARIABLE ? String(current.from) : formatRange(current);
        if (value === before) continue;
        if (perHost) {
          for (const b of group) for (const rank of ranksOn(b.serverId)) rank.environment = { ...rank.environment, [source]: value };
          this.change(job, source, before, value, group[0]!.serverId, null, placed.blocker);
        } else {
          job.environment[source] = value;
          this.change(job, source, group[0]!.defaulted ? null : before, value, null, null, placed.blocker);
        }
      }
    }

    // Single ports of one rank: host_port, device_port, backup_device_port, MASTER_PORT.
    const single = mine.filter((b) => !b.shared && b.source !== NPU_SOCKET_VARIABLE);
    for (const b of single) {
      const placed = this.place(b.ports, 1, b.source, [scopeOf(b)]);
      if (!placed || placed.range.from === b.ports.from) continue;
      const port = placed.range.from;
      const rank = job.ranks.find((r) => r.rank === b.ranks[0]);
      if (b.source === MASTER_PORT_VARIABLE) {
        job.environment[MASTER_PORT_VARIABLE] = String(port);
        this.change(job, b.source, b.defaulted ? null : String(b.ports.from), String(port), null, null, placed.blocker);
        continue;
      }
      if (!rank) continue;
      if (b.source === "device_port") rank.devicePort = port;
      if (b.source === "backup_device_port") rank.backupDevicePort = port;
      if (b.source === "host_port") rank.hostPort = port;
      this.change(job, b.source, b.defaulted ? null : String(b.ports.from), String(port), b.serverId, rank.rank, placed.blocker);
    }

    this.planNpuSockets(job, mine, perHost, perNpu);
  }

  /**
   * Root-info jobs' NPU side: the default 16666 per process while it is free; otherwise (taken, or several processes
   * on one NPU) a job-wide HCCL_NPU_SOCKET_PORT_RANGE as large as the most processes on one NPU, set on every card.
   */
  private planNpuSockets(job: PortJob, mine: readonly PortBinding[], perHost: boolean, size: number) {
    const npu = mine.filter((b) => b.source === NPU_SOCKET_VARIABLE);
    if (npu.length === 0) return;
    const defaults = npu.filter((b) => !b.shared);
    const scopes = [...new Map(npu.map((b) => [b.scope, scopeOf(b)])).values()];
    const fixed = npu.filter((b) => b.shared);
    if (fixed.length > 0) {
      const current = fixed[0]!.ports;
      const placed = perHost ? null : this.place(current, size, NPU_SOCKET_VARIABLE, scopes);
      if (perHost) for (const s of scopes) this.occupancy.hold(s.scope, current);
      if (placed && formatRange(placed.range) !== formatRange(current)) this.setNpuRange(job, formatRange(placed.range), formatRange(current), placed.blocker);
      return;
    }
    // Each process's default port, checked in turn so two processes on one NPU see each other.
    const mineHeld = new Map<string, PortRange[]>();
    let blocker: PortRange | null = size > 1 ? { from: defaults[0]!.ports.from, to: defaults[0]!.ports.to } : null;
    for (const b of defaults) {
      if (blocker !== null) break;
      const own = (mineHeld.get(b.scope) ?? []).find((r) => r.from <= b.ports.to && b.ports.from <= r.to);
      blocker = own ?? this.occupancy.blocker(b.ports, [scopeOf(b)]) ?? (insideAny(b.ports, this.policy.hcclNpuRanges) ? null : b.ports);
      mineHeld.set(b.scope, [...(mineHeld.get(b.scope) ?? []), b.ports]);
    }
    if (blocker === null || perHost) {
      for (const b of defaults) this.occupancy.hold(b.scope, b.ports);
      return;
    }
    // A process's default port is taken, or several processes share an NPU: the job moves to a range on every card.
    const start = this.occupancy.findFree(size, this.policy.hcclNpuRanges, scopes);
    if (start !== null) {
      for (const s of scopes) this.occupancy.hold(s.scope, { from: start, to: start + size - 1 });
      this.setNpuRange(job, formatRange({ from: start, to: start + size - 1 }), null, blocker);
    }
  }

  private setNpuRange(job: PortJob, value: string, before: string | null, blocker: PortRange | null) {
    job.environment[NPU_SOCKET_VARIABLE] = value;
    for (const rank of job.ranks) if (rank.environment) delete rank.environment[NPU_SOCKET_VARIABLE];
    this.change(job, NPU_SOCKET_VARIABLE, before, value, null, null, blocker);
  }
}

/** Plans the ports of a cluster's live jobs (ended jobs hold nothing and are returned unchanged). */
export function planPorts(input: PlanInput): PortPlan {
  const occupancy = new Occupancy(input.policy, input.hosts);
  const planner = new JobPlanner(occupancy, input.policy);
  const move = new Set(input.move ?? []);
  const failover = new Map((input.failover ?? []).map((f) => [f.jobId, new Set<number | null>(f.ranks)]));
  const jobs = input.jobs.map(cloneJob);
  const live = jobs.filter((j) => lifetimeOf(j, input.now).to > input.now);
  const movable = (j: PortJob) => j.state !== "running" || move.has(j.id);

  // Pinned first: running jobs that may not move hold what they bind, and failover jobs what their other ranks bind.
  for (const job of live) {
    if (movable(job)) continue;
    const moved = failover.get(job.id);
    for (const b of jobPorts(job).bindings) {
      if (moved && b.ranks.length > 0 && b.ranks.every((r) => moved.has(r))) continue;
      occupancy.hold(b.scope, b.ports);
    }
  }
  for (const job of live) {
    const moved = failover.get(job.id);
    if (moved && !movable(job)) planner.plan(job, moved, true);
  }
  for (const job of live) {
    if (movable(job)) planner.plan(job, new Set([null, ...job.ranks.map((r) => r.rank)]), false);
  }
  const findings = checkPorts({ ...input, jobs }).findings;
  return { jobs, changes: planner.changes, findings };
}
