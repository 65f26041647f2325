import { describe, expect, it } from "vitest";
import { hostName, portHosts, portJob } from "./fixtures";
import { FINDING_LIST_MAX, jobPortBindingsPage, jobPortFindingsPage, jobPortSummary } from "./job-view";
import { defaultPortPolicy } from "./policy";
import { portReport } from "./report";

const now = 10_000;
const hosts = portHosts(40);
// Job 1 on hosts 0–29 and job 2 on hosts 20–39 share HCCL's default block on hosts 20–29 (PT001 there).
const big = portJob({ id: 1, name: "big", hosts: Array.from({ length: 30 }, (_, i) => i) });
const other = portJob({ id: 2, name: "other", hosts: Array.from({ length: 20 }, (_, i) => i + 20) });
const check = portReport([big, other], hosts, defaultPortPolicy, now, 1);
const all = check.hosts.flatMap((h) => h.bindings);

describe("a job's port check for the job page", () => {
  it("counts what the full check lists: bindings, conflicts and their hosts, findings by code and hosts", () => {
    const summary = jobPortSummary(check, true);
    expect(summary.summary).toEqual(check.summary);
    expect(summary.conflicts.bindings).toBe(all.filter((b) => b.conflict).length);
    expect(summary.conflicts.hosts).toBe(10);
    const pt001 = summary.byCode.find((c) => c.code === "PT001");
    expect(pt001).toMatchObject({ severity: "error", hosts: 10 });
    expect(summary.byCode.reduce((n, c) => n + c.findings, 0)).toBe(check.findings.length);
    expect(summary.hostsAffected).toBe(new Set(check.findings.flatMap((f) => f.servers)).size);
  });

  it("pages the bindings in the check's order, and filters them by host, conflict and source before paging", () => {
    const first = jobPortBindingsPage(check, { offset: 0, limit: 7 });
    expect(first.total).toBe(all.length);
    expect(first.items).toEqual(all.slice(0, 7));
    expect(jobPortBindingsPage(check, { offset: 7, limit: 7 }).items).toEqual(all.slice(7, 14));
    const conflicted = jobPortBindingsPage(check, { offset: 0, limit: 500, conflict: "true" });
    expect(conflicted.total).toBe(all.filter((b) => b.conflict).length);
    expect(new Set(conflicted.items.map((b) => b.serverId))).toEqual(new Set(Array.from({ length: 10 }, (_, i) => hostName(i + 20))));
    const free = jobPortBindingsPage(check, { offset: 0, limit: 500, conflict: "false" });
    expect(free.total + conflicted.total).toBe(all.length);
    const oneHost = jobPortBindingsPage(check, { offset: 0, limit: 500, host: hostName(25).toUpperCase(), source: "HCCL_IF_BASE_PORT" });
    expect(oneHost.items.map((b) => [b.serverId, b.source])).toEqual([[hostName(25), "HCCL_IF_BASE_PORT"]]);
  });

  it("pages the findings by code, cutting each one's hosts and ranks to the first few with their counts", () => {
    const pt001 = jobPortFindingsPage(check, { offset: 0, limit: 50, code: "PT001" });
    const full = check.findings.filter((f) => f.code === "PT001");
    expect(pt001.total).toBe(full.length);
    const [cut] = pt001.items;
    expect(cut!.serverCount).toBe(full[0]!.servers.length);
    expect(cut!.servers).toEqual(full[0]!.servers.slice(0, FINDING_LIST_MAX));
    expect(cut!.message).toEqual(full[0]!.message);
    const party = cut!.parties.find((p) => p.jobId === 1)!;
    const fullParty = full[0]!.parties.find((p) => p.jobId === 1)!;
    expect(party.ranks).toEqual(fullParty.ranks!.slice(0, FINDING_LIST_MAX));
    expect(party.rankCount).toBe(fullParty.ranks!.length);
    expect(jobPortFindingsPage(check, { offset: 0, limit: 50, severity: "warning" }).items.every((f) => f.severity === "warning")).toBe(true);
  });
});
