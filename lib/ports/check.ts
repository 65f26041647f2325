/**
 * The port checks over a cluster's jobs (PT001–PT009, findings.ts): bindings that collide in one scope while both jobs
 * run, ports the OS may hand out first, privileged, forbidden or outside the policy, ranges too small for the
 * processes sharing them, socket-range variables set on some cards only, two jobs on one die, refused values.
 */
import { HOST_SOCKET_VARIABLE, NPU_SOCKET_VARIABLE, PRIVILEGED_BELOW } from "./constants";
import { envOf, jobPorts, lifetimeOf, lifetimesOverlap, type JobPorts } from "./bindings";
import { finding, type PortCode, type PortFinding, type PortParty } from "./findings";
import type { Lifetime, PortBinding, PortHost, PortJob } from "./model";
import { hostSettingsOf, insideAny, type PortPolicy } from "./policy";
import { formatList, intersect, listSize, uncovered, type PortRange } from "./ranges";

export interface PortCheckInput {
  jobs: readonly PortJob[];
  hosts: readonly PortHost[];
  policy: PortPolicy;
  now: number;
}

export interface PortCheckResult {
  bindings: PortBinding[];
  findings: PortFinding[];
}

const partyOf = (b: PortBinding): PortParty => ({ kind: "job", jobId: b.jobId, jobName: b.jobName, ranks: b.ranks, source: b.source, ports: b.ports, defaulted: b.defaulted });

/** Collects findings that share code, hosts' job pair and sources into one, its servers, ranks and ports merged. */
class FindingSet {
  private readonly byKey = new Map<string, { code: PortCode; servers: Set<string>; ports: PortRange | null; parties: PortParty[]; ranks: (Set<number> | null)[]; detail?: { en: string; zh: string } }>();

  add(key: string, code: PortCode, server: string | null, ports: PortRange | null, parties: PortParty[], detail?: { en: string; zh: string }) {
    const k = `${code}|${key}`;
    const found = this.byKey.get(k);
    if (!found) {
      this.byKey.set(k, { code, servers: new Set(server === null ? [] : [server]), ports, parties, ranks: parties.map((p) => (p.ranks ? new Set(p.ranks) : null)), detail });
      return;
    }
    if (server !== null) found.servers.add(server);
    if (ports && found.ports) found.ports = { from: Math.min(found.ports.from, ports.from), to: Math.max(found.ports.to, ports.to) };
    parties.forEach((p, i) => {
      const into = found.ranks[i];
      if (into && p.ranks) for (const r of p.ranks) into.add(r);
    });
  }

  list(): PortFinding[] {
    return [...this.byKey.values()].map((f) => {
      const parties = f.parties.map((p, i) => (f.ranks[i] ? { ...p, ranks: [...f.ranks[i]!] } : p));
      return finding(f.code, [...f.servers].sort(), f.ports, parties, f.detail);
    });
  }
}

/** PT001: bindings of one scope that overlap in ports and in time (a sweep over each scope sorted by first port). */
function conflicts(bindings: readonly PortBinding[], lifetimes: ReadonlyMap<number, Lifetime>, out: FindingSet) {
  const byScope = new Map<string, PortBinding[]>();
  for (const b of bindings) {
    const list = byScope.get(b.scope);
    if (list) list.push(b);
    else byScope.set(b.scope, [b]);
  }
  for (const list of byScope.values()) {
    if (list.length < 2) continue;
    list.sort((x, y) => x.ports.from - y.ports.from);
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      for (let j = i + 1; j < list.length && list[j]!.ports.from <= a.ports.to; j++) {
        const b = list[j]!;
        if (a.jobId !== b.jobId && !lifetimesOverlap(lifetimes.get(a.jobId)!, lifetimes.get(b.jobId)!)) continue;
        const [first, second] = a.jobId < b.jobId || (a.jobId === b.jobId && a.source <= b.source) ? [a, b] : [b, a];
        const ports = { from: Math.max(a.ports.from, b.ports.from), to: Math.min(a.ports.to, b.ports.to) };
        out.add(`${first.jobId}|${second.jobId}|${first.source}|${second.source}`, "PT001", a.serverId, ports, [partyOf(first), partyOf(second)]);
      }
    }
  }
}

function policyChecks(b: PortBinding, policy: PortPolicy, hostModel: ReadonlyMap<string, string | null>, out: FindingSet) {
  const key = `${b.jobId}|${b.source}|${b.ports.from}-${b.ports.to}`;
  const party = partyOf(b);
  if (b.ports.from < PRIVILEGED_BELOW) {
    out.add(key, "PT003", b.serverId, { from: b.ports.from, to: Math.min(b.ports.to, PRIVILEGED_BELOW - 1) }, [party, { kind: "host", label: "privileged ports 1-1023 / 特权端口 1-1023" }]);
  }
  const forbidden = intersect(b.ports, policy.forbidden);
  if (forbidden.length > 0) out.add(key, "PT007", b.serverId, forbidden[0]!, [party, { kind: "policy", label: `forbidden ${formatList(policy.forbidden)}` }]);
  const [allowed, kind] =
    b.source === "MASTER_PORT" ? [policy.hostNetworkRanges, "host-network"] : b.plane === "npu" ? [policy.hcclNpuRanges, "HCCL NPU"] : [policy.hcclHostRanges, "HCCL host"];
  if (!insideAny(b.ports, allowed)) out.add(key, "PT008", b.serverId, b.ports, [party, { kind: "policy", label: `${kind} ranges ${formatList(allowed)}` }]);
  if (b.plane !== "host") return;
  const { ephemeral, reserved } = hostSettingsOf(policy, b.serverId, hostModel.get(b.serverId) ?? null);
  const exposed = intersect(b.ports, [ephemeral]).flatMap((r) => uncovered(r, reserved));
  if (exposed.length > 0) {
    const ports = { from: exposed[0]!.from, to: exposed.at(-1)!.to };
    out.add(`${key}|${ephemeral.from}-${ephemeral.to}`, "PT002", b.serverId, ports, [party, { kind: "host", label: `ephemeral range ${ephemeral.from}-${ephemeral.to} / 临时端口范围 ${ephemeral.from}-${ephemeral.to}` }]);
  }
}

/** PT004: a socket range with fewer ports than the HCCL processes of the job on one NPU. */
function rangeChecks(job: PortJob, ports: JobPorts, out: FindingSet) {
  for (const b of ports.bindings) {
    if (b.source !== NPU_SOCKET_VARIABLE && b.source !== HOST_SOCKET_VARIABLE) continue;
    const sameKind = ports.bindings.filter((x) => x.scope === b.scope && x.source === b.source);
    if (sameKind[0] !== b) continue;
    const size = listSize(sameKind.map((x) => x.ports));
    const processes =
      b.plane === "npu" ? (ports.processesPerNic.get(b.scope)?.length ?? 0) : Math.max(0, ...[...ports.processesPerNic.entries()].filter(([, ranks]) => ranks.some((r) => b.ranks.includes(r))).map(([, ranks]) => ranks.length));
    if (size >= processes) continue;
    out.add(`${job.id}|${b.source}`, "PT004", b.serverId, b.ports, [partyOf(b), { kind: "host", label: `${processes} processes on one NPU / 单个 NPU 上 ${processes} 个进程` }], {
      en: `${b.source} gives ${size} port(s) for ${processes} HCCL processes on one NPU`,
      zh: `${b.source} 仅提供 ${size} 个端口，而单个 NPU 上有 ${processes} 个 HCCL 进程`,
    });
  }
}

/** PT005: HCCL_NPU/HOST_SOCKET_PORT_RANGE set on some cards of the job's communicator and not others. */
function partialVariableChecks(job: PortJob, out: FindingSet) {
  for (const variable of [NPU_SOCKET_VARIABLE, HOST_SOCKET_VARIABLE]) {
    const placed = job.ranks.filter((r) => r.serverId !== null);
    const withIt = placed.filter((r) => envOf(job, r)[variable] !== undefined);
    if (withIt.length === 0 || withIt.length === placed.length) continue;
    const without = placed.filter((r) => envOf(job, r)[variable] === undefined);
    const ranks = (list: typeof placed) => list.flatMap((r) => (r.rank === null ? [] : [r.rank]));
    out.add(`${job.id}|${variable}`, "PT005", without[0]!.serverId, null, [
      { kind: "job", jobId: job.id, jobName: job.name, ranks: ranks(withIt), source: variable },
      { kind: "job", jobId: job.id, jobName: job.name, ranks: ranks(without) },
    ], { en: variable, zh: variable });
  }
}

interface DieUse {
  job: PortJob;
  ranks: number[];
  serverId: string;
}

/** PT006: two jobs with ranks on one die while both run. */
function sharedDieChecks(jobs: readonly PortJob[], lifetimes: ReadonlyMap<number, Lifetime>, out: FindingSet) {
  const byDie = new Map<string, DieUse[]>();
  for (const job of jobs) {
    for (const rank of job.ranks) {
      if (rank.dieId === null || rank.serverId === null) continue;
      let list = byDie.get(rank.dieId);
      if (!list) byDie.set(rank.dieId, (list = []));
      const entry = list.find((e) => e.job === job);
      if (entry) entry.ranks.push(rank.rank ?? -1);
      else list.push({ job, ranks: [rank.rank ?? -1], serverId: rank.serverId });
    }
  }
  const pairs = new Map<string, { a: DieUse; b: DieUse; dies: string[] }>();
  for (const [dieId, list] of byDie) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = list[i]!.job.id < list[j]!.job.id ? [list[i]!, list[j]!] : [list[j]!, list[i]!];
        if (!lifetimesOverlap(lifetimes.get(a.job.id)!, lifetimes.get(b.job.id)!)) continue;
        const key = `${a.serverId}|${a.job.id}|${b.job.id}`;
        const pair = pairs.get(key);
        if (pair) pair.dies.push(dieId);
        else pairs.set(key, { a, b, dies: [dieId] });
      }
    }
  }
  for (const [key, { a, b, dies }] of pairs) {
    out.add(key, "PT006", a.serverId, null, [
      { kind: "job", jobId: a.job.id, jobName: a.job.name, ranks: a.ranks },
      { kind: "job", jobId: b.job.id, jobName: b.job.name, ranks: b.ranks },
    ], { en: dies.join(", "), zh: dies.join(", ") });
  }
}

function lifetimesOf(jobs: readonly PortJob[], now: number): Map<number, Lifetime> {
  return new Map(jobs.map((j) => [j.id, lifetimeOf(j, now)]));
}

export function checkPorts(input: PortCheckInput): PortCheckResult {
  const lifetimes = lifetimesOf(input.jobs, input.now);
  const hostModel = new Map(input.hosts.map((h) => [h.serverId, h.model]));
  const out = new FindingSet();
  const bindings: PortBinding[] = [];
  for (const job of input.jobs) {
    const ports = jobPorts(job);
    // One at a time: a spread of a 131,072-rank job's bindings overflows the call stack.
    for (const b of ports.bindings) {
      bindings.push(b);
      policyChecks(b, input.policy, hostModel, out);
    }
    rangeChecks(job, ports, out);
    partialVariableChecks(job, out);
    for (const problem of ports.problems) {
      out.add(`${job.id}|${problem.variable}`, "PT009", null, null, [
        { kind: "job", jobId: job.id, jobName: job.name, ranks: problem.ranks, source: problem.variable },
        { kind: "host", label: problem.reason },
      ], { en: problem.value, zh: problem.value });
    }
  }
  conflicts(bindings, lifetimes, out);
  sharedDieChecks(input.jobs, lifetimes, out);
  const order: Record<string, number> = { error: 0, warning: 1 };
  const findings = out.list().sort((a, b) => order[a.severity]! - order[b.severity]! || a.code.localeCompare(b.code));
  return { bindings, findings };
}
