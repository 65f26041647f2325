import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jobPorts } from "./bindings";
import { checkPorts } from "./check";
import { hostName, portHosts, portJob, type JobSpec } from "./fixtures";
import type { PortJob } from "./model";
import { planPorts } from "./planner";
import { defaultPortPolicy } from "./policy";

const now = 10_000;
const hosts = portHosts(16);
const policy = defaultPortPolicy;
const conflictCodes = new Set(["PT001", "PT002", "PT003", "PT004", "PT005", "PT007", "PT008"]);

/** Everything a job binds, keyed so two plans can be compared rank by rank. */
const bindingKeys = (job: PortJob) => jobPorts(job).bindings.map((b) => `${b.scope}|${b.source}|${b.ranks.join(",")}|${b.ports.from}-${b.ports.to}`).sort();

describe("the port planner", () => {
  it("moves a pending job off a running job's 60000 block and out of the ephemeral range, keeping the running job", () => {
    const running = portJob({ id: 1, name: "running", hosts: [0], devices: [0, 1, 2, 3] });
    const pending = portJob({ id: 2, name: "pending", state: "pending", hosts: [0], devices: [4, 5, 6, 7] });
    const plan = planPorts({ jobs: [running, pending], hosts, policy, now });
    expect(plan.jobs[0]).toEqual(running);
    expect(plan.jobs[1]!.environment.HCCL_IF_BASE_PORT).toBe("61000");
    expect(plan.jobs[1]!.environment.MASTER_PORT).toBe("20000");
    expect(plan.changes.map((c) => [c.jobName, c.field, c.from, c.to])).toEqual([
      ["pending", "HCCL_IF_BASE_PORT", null, "61000"],
      ["pending", "MASTER_PORT", null, "20000"],
    ]);
    // What remains is the running job's own (default block unreserved, outside the policy): not the planner's to move.
    expect(plan.findings.every((f) => f.parties.every((p) => p.kind !== "job" || p.jobId === 1))).toBe(true);
  });

  it("moves a running job only when asked", () => {
    const a = portJob({ id: 1, hosts: [0], devices: [0] });
    const b = portJob({ id: 2, hosts: [0], devices: [1] });
    expect(planPorts({ jobs: [a, b], hosts, policy, now }).findings.some((f) => f.code === "PT001")).toBe(true);
    const moved = planPorts({ jobs: [a, b], hosts, policy, now, move: [1, 2] });
    expect(moved.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect([moved.jobs[0]!.environment.HCCL_IF_BASE_PORT, moved.jobs[1]!.environment.HCCL_IF_BASE_PORT]).toEqual(["61000", "61032"]);
  });

  it("gives several processes on one NPU a job-wide HCCL_NPU_SOCKET_PORT_RANGE on every card", () => {
    const job = portJob({ id: 1, state: "pending", hosts: [0], devices: [0, 1], processes: 2 });
    const plan = planPorts({ jobs: [job], hosts, policy, now });
    expect(plan.jobs[0]!.environment.HCCL_NPU_SOCKET_PORT_RANGE).toBe("16666-16667");
    expect(plan.findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("re-plans rank-table ports of a pending job sharing NICs with a running one", () => {
    const a = portJob({ id: 1, hosts: [0], devices: [0], rankTable: { hostPort: true }, environment: { HCCL_IF_BASE_PORT: "61000", MASTER_PORT: "20000" } });
    const b = portJob({ id: 2, state: "pending", hosts: [0], devices: [0], rankTable: { hostPort: true } });
    const plan = planPorts({ jobs: [a, b], hosts, policy, now });
    const rank = plan.jobs[1]!.ranks[0]!;
    // Its 60000 block moves to 61032 (61000 is the running job's), so host_port 16665 (outside the policy) goes after it.
    expect([rank.devicePort, rank.hostPort]).toEqual([16667, 61064]);
    // Left: the shared die (placement, not ports) and the running job's own host_port outside the policy.
    expect(plan.findings.map((f) => [f.code, f.parties[0]!.jobId])).toEqual([["PT006", 1], ["PT008", 1]]);
  });

  it("on failover re-plans only the moved rank and keeps every other rank's ports", () => {
    const other = portJob({ id: 1, hosts: [2], devices: [0], environment: { HCCL_IF_BASE_PORT: "61000", MASTER_PORT: "20000" } });
    const job = portJob({ id: 2, hosts: [0, 1], devices: [0, 1], environment: { HCCL_IF_BASE_PORT: "61000", MASTER_PORT: "20001" } });
    const before = structuredClone(job);
    // Rank 3 (host 1, device 1) lands on host 2, where the other job holds 61000.
    Object.assign(job.ranks[3]!, { serverId: hostName(2), dieId: `${hostName(2)}/d5`, deviceIp: "10.0.2.6" });
    const plan = planPorts({ jobs: [other, job], hosts, policy, now, failover: [{ jobId: 2, ranks: [3] }] });
    const planned = plan.jobs[1]!;
    expect(planned.environment).toEqual(before.environment);
    expect(planned.ranks.slice(0, 3)).toEqual(before.ranks.slice(0, 3));
    expect(planned.ranks[3]!.environment).toEqual({ HCCL_IF_BASE_PORT: "61032" });
    expect(plan.changes.map((c) => [c.serverId, c.field, c.from, c.to])).toEqual([[hostName(2), "HCCL_IF_BASE_PORT", "61000", "61032"]]);
    expect(plan.findings.filter((f) => f.severity === "error")).toEqual([]);
  });
});

const jobSpec = (id: number) =>
  fc.record({
    hosts: fc.uniqueArray(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 3 }),
    devices: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 4 }),
    processes: fc.integer({ min: 1, max: 2 }),
    state: fc.constantFrom("running" as const, "pending" as const),
    rankTable: fc.option(fc.record({ hostPort: fc.boolean() }), { nil: undefined }),
    environment: fc.constantFrom<Record<string, string>>({}, { HCCL_IF_BASE_PORT: "61000" }, { MASTER_PORT: "20000" }, { HCCL_NPU_SOCKET_PORT_RANGE: "16666-16667" }),
  }).map((s): JobSpec => ({ id, ...s }));

/** Jobs whose ranks never share a die with another job (that is a placement problem, PT006, not a port one). */
const jobSets = fc.array(fc.nat(), { minLength: 1, maxLength: 12 }).chain((seeds) => fc.tuple(...seeds.map((_, i) => jobSpec(i + 1)))).map((specs) => {
  const used = new Set<string>();
  return specs.flatMap((spec) => {
    const job = portJob(spec);
    if (job.ranks.some((r) => used.has(r.dieId!))) return [];
    for (const r of job.ranks) used.add(r.dieId!);
    return [job];
  });
});

describe("the port planner on random job sets", () => {
  it("never leaves a conflict when it may move everything, and never moves a running job it was not asked to", () => {
    fc.assert(
      fc.property(jobSets, (jobs) => {
        const all = planPorts({ jobs, hosts, policy, now, move: jobs.map((j) => j.id) });
        expect(all.findings.filter((f) => conflictCodes.has(f.code))).toEqual([]);
        const pinned = planPorts({ jobs, hosts, policy, now });
        jobs.forEach((job, i) => {
          if (job.state === "running") expect(pinned.jobs[i]).toEqual(job);
        });
        // Pending jobs are never the cause of a conflict once planned.
        const pendingIds = new Set(jobs.filter((j) => j.state === "pending").map((j) => j.id));
        const blamed = pinned.findings.filter((f) => f.code === "PT001" && f.parties.some((p) => pendingIds.has(p.jobId ?? -1)));
        expect(blamed).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it("a failover changes only the moved ranks' ports", () => {
    fc.assert(
      fc.property(jobSets, fc.nat(), (jobs, pick) => {
        const settled = planPorts({ jobs, hosts, policy, now, move: jobs.map((j) => j.id) }).jobs.map((j) => ({ ...j, state: "running" as const }));
        const job = settled[pick % settled.length]!;
        const moved = job.ranks.at(-1)!;
        const taken = new Set(settled.flatMap((j) => j.ranks.map((r) => r.dieId)));
        const free = Array.from({ length: 16 * 8 }, (_, k) => `${hostName(k >> 3)}/d${k & 7}`).find((d) => !taken.has(d));
        if (!free) return;
        const [server, device] = free.split("/d");
        const keptBefore = bindingKeys({ ...job, ranks: job.ranks.slice(0, -1) });
        Object.assign(moved, { serverId: server, dieId: free, deviceIp: `10.9.${Number(device)}.${server!.slice(-2)}` });
        const plan = planPorts({ jobs: settled, hosts, policy, now, failover: [{ jobId: job.id, ranks: [moved.rank!] }] });
        const after = plan.jobs.find((j) => j.id === job.id)!;
        expect(bindingKeys({ ...after, ranks: after.ranks.slice(0, -1) })).toEqual(keptBefore);
        // The master's store port is the one thing every rank sees: it changes only when the master itself moved.
        const masterMoved = moved.rank === 0;
        const { MASTER_PORT: _after, ...envAfter } = after.environment;
        const { MASTER_PORT: _before, ...envBefore } = job.environment;
        expect(envAfter).toEqual(envBefore);
        if (!masterMoved) expect(_after).toBe(_before);
        expect(plan.changes.every((c) => c.jobId === job.id && (c.rank === moved.rank || c.serverId === server || (masterMoved && c.field === "MASTER_PORT")))).toBe(true);
        expect(plan.findings.filter((f) => f.code === "PT001")).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

it("checkPorts and planPorts agree on a clean plan", () => {
  const jobs = [portJob({ id: 1, state: "pending", hosts: [0, 1], devices: [0, 1, 2, 3] }), portJob({ id: 2, state: "pending", hosts: [1, 2], devices: [4, 5, 6, 7] })];
  const plan = planPorts({ jobs, hosts, policy, now });
  expect(checkPorts({ jobs: plan.jobs, hosts, policy, now }).findings).toEqual(plan.findings);
  expect(plan.findings).toEqual([]);
});
