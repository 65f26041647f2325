/**
 * Port checking and planning speed (lib/ports): 1,000 jobs on 1,024 hosts × 8 dies, half running and half pending,
 * 1 to 8 hosts each, every job on the default ports (so every shared host conflicts): the check of all of them, the
 * plan with running jobs pinned, the plan that may move everything, and a failover of one rank. Medians of 5 runs,
 * in-process (no database); it prints, never asserts.
 */
import os from "node:os";
import { checkPorts } from "@/lib/ports/check";
import { portHosts, portJob } from "@/lib/ports/fixtures";
import { planPorts } from "@/lib/ports/planner";
import { defaultPortPolicy } from "@/lib/ports/policy";
import type { BenchSection } from "./index";
import { median } from "./percentiles";

const RUNS = 5;
const HOSTS = 1024;
const JOBS = 1000;

function jobSet() {
  return Array.from({ length: JOBS }, (_, i) => {
    const span = 1 + (i % 8);
    const first = (i * 7) % HOSTS;
    return portJob({
      id: i + 1,
      state: i % 2 === 0 ? "running" : "pending",
      hosts: Array.from({ length: span }, (_, k) => (first + k) % HOSTS),
      devices: i % 2 === 0 ? [0, 1, 2, 3] : [4, 5, 6, 7],
      rankTable: i % 3 === 0 ? { hostPort: true } : undefined,
    });
  });
}


/** Wall time and this process's CPU time: on a shared machine the CPU time is the figure to compare. */
function time<T>(work: () => T): { ms: number; cpuMs: number; result: T } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, result };
}

export const portsBench: BenchSection = {
  name: "ports",
  description: "port checks and plans: 1,000 jobs on 1,024 hosts",
  async run() {
    const jobs = jobSet();
    const hosts = portHosts(HOSTS);
    const input = { jobs, hosts, policy: defaultPortPolicy, now: Date.now() };
    const ranks = jobs.reduce((n, j) => n + j.ranks.length, 0);
    const rows: [string, number[], string, number[]][] = [
      ["check", [], "", []],
      ["plan (running pinned)", [], "", []],
      ["plan (move all)", [], "", []],
      ["check + plan (running pinned)", [], "", []],
      ["failover of one rank", [], "", []],
    ];
    for (let run = 0; run < RUNS; run++) {
      const check = time(() => checkPorts(input));
      rows[0]![1].push(check.ms);
      rows[0]![3].push(check.cpuMs);
      rows[0]![2] = `${check.result.findings.length} findings, ${check.result.findings.filter((f) => f.code === "PT001").length} PT001`;
      const pinned = time(() => planPorts(input));
      rows[1]![1].push(pinned.ms);
      rows[1]![3].push(pinned.cpuMs);
      rows[1]![2] = `${pinned.result.changes.length} changes, ${pinned.result.findings.filter((f) => f.code === "PT001").length} PT001 left (running vs running)`;
      const all = time(() => planPorts({ ...input, move: jobs.map((j) => j.id) }));
      rows[2]![1].push(all.ms);
      rows[2]![3].push(all.cpuMs);
      rows[2]![2] = `${all.result.changes.length} changes, ${all.result.findings.filter((f) => f.severity === "error").length} errors left`;
      rows[3]![1].push(check.ms + pinned.ms);
      rows[3]![3].push(check.cpuMs + pinned.cpuMs);
      const settled = all.result.jobs.map((j) => ({ ...j, state: "running" as const }));
      const job = settled[1]!;
      Object.assign(job.ranks[0]!, { serverId: hosts[HOSTS - 1]!.serverId, dieId: `${hosts[HOSTS - 1]!.serverId}/d7`, deviceIp: "10.255.255.8" });
      const failover = time(() => planPorts({ ...input, jobs: settled, failover: [{ jobId: job.id, ranks: [0] }] }));
      rows[4]![1].push(failover.ms);
      rows[4]![3].push(failover.cpuMs);
      rows[4]![2] = `${failover.result.changes.length} changes`;
    }
    console.log(`${JOBS} jobs, ${ranks} ranks on ${HOSTS} hosts; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    console.log("| step | median wall ms | min wall ms | median CPU ms | result |\n| --- | --- | --- | --- | --- |");
    for (const [name, ms, result, cpu] of rows) console.log(`| ${name} | ${median(ms).toFixed(0)} | ${Math.min(...ms).toFixed(0)} | ${median(cpu).toFixed(0)} | ${result} |`);
  },
};
