/**
 * Ports through their route handlers against PostgreSQL: two running jobs sharing servers on the default ports are
 * found (PT001, both named), a pending job is planned around them in a dry run, and an applied plan that may move the
 * running jobs writes their port variables (audited) and leaves no conflict.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createJob } from "@/db/queries/jobs";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { auditLog, jobs } from "@/db/schema";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { completedA3Table } from "@/lib/jobs/fixtures/rings-config";
import type { PortFinding } from "@/lib/ports/findings";
import { defaultPortPolicy } from "@/lib/ports/policy";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let getPorts: Handler;
let postPlan: Handler;
let putPolicy: Handler;
let token = "";
const auth = () => ({ authorization: `Bearer ${token}` });
const cluster = { params: Promise.resolve({ id: "atlas-a2-demo" }) };
const a2 = demoA2Cluster();
const ids: Record<string, number> = {};

/** A table of the A2 demo's servers 0 and 1, devices `from`…`from+3` of each. */
const table = (from: number) =>
  completedA3Table(a2.servers.slice(0, 2).map((s) => ({ serverId: s.hostIp!, devices: s.npus.slice(from, from + 4).map((n) => ({ id: n.dies[0]!.deviceId, ip: n.dies[0]!.deviceIp! })) })));

beforeAll(async () => {
  ({ GET: getPorts } = (await import("./route")) as unknown as { GET: Handler });
  ({ POST: postPlan } = (await import("./plan/route")) as unknown as { POST: Handler });
  ({ PUT: putPolicy } = (await import("./policy/route")) as unknown as { PUT: Handler });
  const handle = testDatabase();
  await seedDemo(handle.db, [a2]);
  token = (await createApiToken(handle.db, { name: "ports editor", role: "editor" }, systemActor)).token;
  for (const [name, from, state] of [["bert", 0, "running"], ["gpt", 4, "running"], ["t5", 4, "pending"]] as const) {
    ids[name] = (await createJob(handle, { cluster: "atlas-a2-demo", name, state, rankTable: JSON.stringify(table(from)), environment: name === "gpt" ? { MASTER_PORT: "29600" } : {} }, systemActor)).id;
  }
});

interface Report {
  hosts: { serverId: string; bindings: { jobName: string; source: string; conflict: boolean }[] }[];
  findings: PortFinding[];
}

describe("GET /api/v1/clusters/{id}/ports", () => {
  it("maps each host's ports and finds the two running jobs on HCCL's default block, naming both", async () => {
    const response = await getPorts(new Request("http://localhost/api/v1/clusters/atlas-a2-demo/ports", { headers: auth() }), cluster);
    expect(response.status).toBe(200);
    const report = (await response.json()) as Report;
    const conflict = report.findings.find((f) => f.code === "PT001" && f.parties.some((p) => p.jobName === "bert") && f.parties.some((p) => p.jobName === "gpt"));
    expect(conflict?.ports).toEqual({ from: 60000, to: 60031 });
    expect(conflict?.servers).toHaveLength(2);
    expect(conflict?.message.zh).toContain("作业“bert”");
    expect(report.findings.some((f) => f.code === "PT006" && f.parties.some((p) => p.jobName === "t5"))).toBe(true);
    const host = report.hosts.find((h) => h.bindings.length > 0)!;
    expect(host.bindings.some((b) => b.jobName === "bert" && b.source === "HCCL_IF_BASE_PORT" && b.conflict)).toBe(true);
  });

  it("narrows to one job and answers 422 for a job the cluster does not run", async () => {
    const one = (await (await getPorts(new Request("http://localhost/api/v1/clusters/atlas-a2-demo/ports?job=t5", { headers: auth() }), cluster)).json()) as Report;
    expect(one.hosts.flatMap((h) => h.bindings).every((b) => b.jobName === "t5")).toBe(true);
    const missing = await getPorts(new Request("http://localhost/api/v1/clusters/atlas-a2-demo/ports?job=nope", { headers: auth() }), cluster);
    expect(missing.status).toBe(422);
  });
});

describe("POST /api/v1/clusters/{id}/ports/plan", () => {
  const plan = (body: unknown) => postPlan(jsonRequest("/api/v1/clusters/atlas-a2-demo/ports/plan", "POST", body, auth()), cluster);

  it("plans the pending job around the running ones in a dry run, changing nothing stored", async () => {
    const response = await plan({});
    expect(response.status).toBe(200);
    const body = (await response.json()) as { dryRun: boolean; changes: { jobName: string; field: string }[]; diff: { en: string }; jobs: { name: string; env: string; configMap: string | null }[] };
    expect(body.dryRun).toBe(true);
    expect(new Set(body.changes.map((c) => c.jobName))).toEqual(new Set(["t5"]));
    expect(body.diff.en).toContain("+ HCCL_IF_BASE_PORT=61000");
    const t5 = body.jobs.find((j) => j.name === "t5")!;
    expect(t5.env).toContain("export HCCL_IF_BASE_PORT=61000");
    const { db } = testDatabase();
    expect((await db.select({ environment: jobs.environment }).from(jobs).where(eq(jobs.id, ids.t5!)))[0]!.environment).toEqual({});
  });

  it("applies a plan that may move the running jobs: written, audited, and the cluster is then free of conflicts", async () => {
    const response = await plan({ move: ["bert", "gpt"], apply: true });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { dryRun: boolean; applied: number[] };
    expect(body.dryRun).toBe(false);
    expect(body.applied.sort()).toEqual([ids.bert, ids.gpt, ids.t5].sort());
    const { db } = testDatabase();
    const audits = await db.select().from(auditLog).where(and(eq(auditLog.action, "job.ports_apply"), eq(auditLog.targetId, String(ids.gpt))));
    expect(audits).toHaveLength(1);
    const after = (await (await getPorts(new Request("http://localhost/api/v1/clusters/atlas-a2-demo/ports", { headers: auth() }), cluster)).json()) as Report;
    expect(after.findings.filter((f) => f.code === "PT001")).toEqual([]);
  });

  it("stores a cluster's policy (reserving 60000-60031 on the A2 model ends PT002 there) and refuses a bad one", async () => {
    const policy = { ...defaultPortPolicy, hcclHostRanges: [{ from: 60000, to: 64999 }], models: { "Atlas 800T A2": { reserved: [{ from: 60000, to: 60031 }] } } };
    expect((await putPolicy(jsonRequest("/api/v1/clusters/atlas-a2-demo/ports/policy", "PUT", policy, auth()), cluster)).status).toBe(200);
    const report = (await (await getPorts(new Request("http://localhost/api/v1/clusters/atlas-a2-demo/ports", { headers: auth() }), cluster)).json()) as Report & { policyStored: boolean };
    expect(report.policyStored).toBe(true);
    expect(report.findings.filter((f) => f.code === "PT002" && f.ports!.from < 60032)).toEqual([]);
    const bad = await putPolicy(jsonRequest("/api/v1/clusters/atlas-a2-demo/ports/policy", "PUT", { ...policy, ephemeral: { from: 61000, to: 32768 } }, auth()), cluster);
    expect(bad.status).toBe(400);
    const { db } = testDatabase();
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "cluster.port_policy"))).toHaveLength(1);
  });

  it("refuses an unknown field", async () => {
    expect((await plan({ moves: [] })).status).toBe(400);
  });
});
