/**
 * The automatic port check of a job when it is created or changes, through the jobs route handlers against
 * PostgreSQL: the answer of POST /jobs, PATCH /jobs/{id} and a rings-config post carries the check in counts (the
 * summary `GET /jobs/{id}/ports` answers, bounded whatever the job's size), and the bindings and PT findings (naming
 * the other job, against the jobs that share its hosts) come a page at a time after it; per-rank variables
 * (`rankEnvironment`) are stored, filtered, audited and checked (PT005); an ended job holds no ports.
 */
import { and, desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { jobPortCheck } from "@/db/queries/ports";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { auditLog } from "@/db/schema";
import type { JobSummary as JobDetail } from "@/db/schema/job/ranks";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { completedA3Table, ringsConfigMap } from "@/lib/jobs/fixtures/rings-config";
import type { JobPortBinding, JobPortFinding, JobPortPage, JobPortSummary } from "@/lib/ports/job-view";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

// Counts the checks run: the job page's requests are to reuse the one its write kept (db/queries/job-ports.ts).
vi.mock("@/db/queries/ports", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/db/queries/ports")>();
  return { ...actual, jobPortCheck: vi.fn(actual.jobPortCheck) };
});
const checksOf = (id: number) => vi.mocked(jobPortCheck).mock.calls.filter(([, jobId]) => jobId === id).length;

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
type Answer = JobDetail & { ports: JobPortSummary };
const routes = {} as Record<"create" | "patch" | "rings" | "plan" | "summary" | "bindings" | "findings", Handler>;
let token = "";
const auth = () => ({ authorization: `Bearer ${token}` });
const none = { params: Promise.resolve({ id: "" }) };
const a2 = demoA2Cluster();

/** A table of the A2 demo's servers 2 and 3 (the jobs seed uses 0 and 1), devices `from`…`from+3` of each. */
const table = (from: number) =>
  JSON.stringify(
    completedA3Table(a2.servers.slice(2, 4).map((s) => ({ serverId: s.hostIp!, devices: s.npus.slice(from, from + 4).map((n) => ({ id: n.dies[0]!.deviceId, ip: n.dies[0]!.deviceIp! })) }))),
  );

beforeAll(async () => {
  ({ POST: routes.create } = (await import("./route")) as unknown as { POST: Handler });
  ({ PATCH: routes.patch } = (await import("./[id]/route")) as unknown as { PATCH: Handler });
  ({ POST: routes.rings } = (await import("./rings-config/route")) as unknown as { POST: Handler });
  ({ POST: routes.plan } = (await import("../clusters/[id]/ports/plan/route")) as unknown as { POST: Handler });
  ({ GET: routes.summary } = (await import("./[id]/ports/route")) as unknown as { GET: Handler });
  ({ GET: routes.bindings } = (await import("./[id]/ports/bindings/route")) as unknown as { GET: Handler });
  ({ GET: routes.findings } = (await import("./[id]/ports/findings/route")) as unknown as { GET: Handler });
  const { db } = testDatabase();
  await seedDemo(db, [a2]);
  token = (await createApiToken(db, { name: "ports editor", role: "editor" }, systemActor)).token;
});

const create = async (body: unknown) => {
  const response = await routes.create(jsonRequest("/api/v1/jobs", "POST", body, auth()), none);
  expect(response.status).toBe(201);
  return (await response.json()) as Answer;
};
const patch = async (id: number, body: unknown) => {
  const response = await routes.patch(jsonRequest(`/api/v1/jobs/${id}`, "PATCH", body, auth()), { params: Promise.resolve({ id: String(id) }) });
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
};
const get = async <T>(handler: Handler, id: number, path: string) => {
  const response = await handler(jsonRequest(path, "GET", undefined, auth()), { params: Promise.resolve({ id: String(id) }) });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
};
/** Every binding and finding of the job's check, through the pages the write's answer points to (these jobs have a few dozen). */
const bindingsOf = async (id: number) => (await get<JobPortPage<JobPortBinding>>(routes.bindings, id, `/api/v1/jobs/${id}/ports/bindings?limit=500`)).items;
const findingsOf = async (id: number) => (await get<JobPortPage<JobPortFinding>>(routes.findings, id, `/api/v1/jobs/${id}/ports/findings?limit=500`)).items;
const conflictWith = async (answer: { id: number; name: string }, other: string) =>
  (await findingsOf(answer.id)).find((f) => f.code === "PT001" && f.parties.some((p) => p.jobName === other) && f.parties.some((p) => p.jobName === answer.name));

describe("the port check that runs when a job is written", () => {
  let bert: Answer;
  let gpt: Answer;

  it("answers a new job alone on its hosts with its check in counts (no error), its bindings paged after it", async () => {
    bert = await create({ cluster: "atlas-a2-demo", name: "bert-ports", rankTable: table(0) });
    expect(bert.ports).toMatchObject({ live: true, summary: { hosts: 2, errors: 0 }, conflicts: { bindings: 0, hosts: 0 } });
    expect(bert.ports).not.toHaveProperty("hosts");
    expect(bert.ports).not.toHaveProperty("findings");
    const bindings = await bindingsOf(bert.id);
    expect(bindings).toHaveLength(bert.ports.summary.bindings);
    expect(new Set(bindings.map((b) => b.source))).toEqual(new Set(["HCCL_IF_BASE_PORT", "device_port", "MASTER_PORT"]));
    expect(bindings.every((b) => b.jobName === "bert-ports")).toBe(true);
  });

  it("finds the second job's clash on HCCL's default block, naming the first, in the create answer", async () => {
    gpt = await create({ cluster: "atlas-a2-demo", name: "gpt-ports", rankTable: table(4), environment: { MASTER_PORT: "29600" } });
    expect(gpt.ports.summary.errors).toBeGreaterThan(0);
    expect(gpt.ports.conflicts.hosts).toBe(2);
    expect(gpt.ports.byCode.find((c) => c.code === "PT001")).toMatchObject({ severity: "error", hosts: 2 });
    const clash = await conflictWith(gpt, "bert-ports");
    expect(clash?.ports).toEqual({ from: 60000, to: 60031 });
    expect(clash?.servers).toHaveLength(2);
    expect(clash?.message.en).toContain('job "bert-ports"');
    expect(clash?.message.zh).toContain("作业“gpt-ports”");
    expect((await bindingsOf(gpt.id)).some((b) => b.source === "HCCL_IF_BASE_PORT" && b.conflict)).toBe(true);
  });

  it("answers the job page's bounded check: the write's counts again, then bindings and findings a page at a time", async () => {
    const base = `/api/v1/jobs/${gpt.id}/ports`;
    const checks = checksOf(gpt.id);
    expect(checks).toBeGreaterThan(0); // the write's own
    const all = await bindingsOf(gpt.id);
    const summary = await get<JobPortSummary>(routes.summary, gpt.id, base);
    expect(summary).toEqual(gpt.ports);
    expect(summary.conflicts.bindings).toBe(all.filter((b) => b.conflict).length);
    const page = await get<JobPortPage<JobPortBinding>>(routes.bindings, gpt.id, `${base}/bindings?limit=2&offset=1`);
    expect(page).toEqual({ total: all.length, offset: 1, limit: 2, items: all.slice(1, 3) });
    const conflicted = await get<JobPortPage<JobPortBinding>>(routes.bindings, gpt.id, `${base}/bindings?conflict=true`);
    expect(conflicted.total).toBe(summary.conflicts.bindings);
    expect(conflicted.items.every((b) => b.conflict)).toBe(true);
    const findings = await get<JobPortPage<JobPortFinding>>(routes.findings, gpt.id, `${base}/findings?code=PT001`);
    expect(findings.total).toBe(summary.byCode.find((c) => c.code === "PT001")?.findings);
    expect(findings.items[0]?.serverCount).toBe(2);
    const bad = await routes.bindings(jsonRequest(`${base}/bindings?limit=501`, "GET", undefined, auth()), { params: Promise.resolve({ id: String(gpt.id) }) });
    expect(bad.status).toBe(400);
    // The page asks for its counts and first pages at once, and again on a reload: every answer from the write's check.
    const page1 = () => Promise.all([get(routes.summary, gpt.id, base), get(routes.bindings, gpt.id, `${base}/bindings?offset=0&limit=20`), get(routes.findings, gpt.id, `${base}/findings?offset=0&limit=10`)]);
    expect(await page1()).toEqual(await page1());
    expect(checksOf(gpt.id)).toBe(checks);
  });

  it("checks again on PATCH: a block of its own ends the clash", async () => {
    const moved = await patch(gpt.id, { environment: { HCCL_IF_BASE_PORT: "61000", MASTER_PORT: "29600" } });
    expect(moved.ports.summary.errors).toBe(0);
    expect(moved.ports.conflicts.bindings).toBe(0);
    expect(await conflictWith(moved, "bert-ports")).toBeUndefined();
  });

  it("stores per-rank variables (filtered like the job's), audits them and finds a socket range on some cards only", async () => {
    const answer = await patch(gpt.id, { rankEnvironment: { "0": { HCCL_NPU_SOCKET_PORT_RANGE: "16670-16671", SECRET_TOKEN: "x" }, "5": "export PATH=/bin\n" } });
    expect(answer.rankEnvironment).toEqual({ "0": { HCCL_NPU_SOCKET_PORT_RANGE: "16670-16671" } });
    expect(answer.ports.byCode.find((c) => c.code === "PT005")?.findings).toBe(1);
    const partial = (await findingsOf(gpt.id)).find((f) => f.code === "PT005");
    expect(partial?.parties[0]).toMatchObject({ jobName: "gpt-ports", ranks: [0], source: "HCCL_NPU_SOCKET_PORT_RANGE" });
    expect(partial?.parties[1]?.ranks).toHaveLength(7);
    const [audit] = await testDatabase()
      .db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "job.update"), eq(auditLog.targetId, String(gpt.id))))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit?.after).toMatchObject({ rankEnvironment: { "0": { HCCL_NPU_SOCKET_PORT_RANGE: "16670-16671" } } });
    const cleared = await patch(gpt.id, { rankEnvironment: {} });
    expect(cleared.ports.byCode.some((c) => c.code === "PT005")).toBe(false);
  });

  it("rejects a per-rank key that is not a rank number", async () => {
    const response = await routes.patch(jsonRequest(`/api/v1/jobs/${gpt.id}`, "PATCH", { rankEnvironment: { first: {} } }, auth()), { params: Promise.resolve({ id: String(gpt.id) }) });
    expect(response.status).toBe(400);
  });

  it("answers a rings-config post with the job's port check in counts", async () => {
    const response = await routes.rings(jsonRequest("/api/v1/jobs/rings-config?cluster=atlas-a2-demo", "POST", ringsConfigMap({ job: "t5-ports", table: JSON.parse(table(0)), version: "1" }), auth()), none);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { job: JobDetail; ports: JobPortSummary };
    expect(answer.ports.byCode.map((c) => c.code)).toEqual(expect.arrayContaining(["PT001", "PT006"]));
    expect(await conflictWith(answer.job, "bert-ports")).toBeDefined();
  });

  it("holds no ports once the job has ended", async () => {
    const ended = await patch(bert.id, { state: "succeeded" });
    expect(ended.ports).toMatchObject({ live: false, summary: { hosts: 0, bindings: 0 }, byCode: [] });
  });
});

describe("a failover applied", () => {
  const die = (server: number, npu: number) => ({ id: a2.servers[server]!.npus[npu]!.dies[0]!.deviceId, ip: a2.servers[server]!.npus[npu]!.dies[0]!.deviceIp! });
  const tableOf = (servers: { server: number; npus: number[] }[]) =>
    JSON.stringify(completedA3Table(servers.map(({ server, npus }) => ({ serverId: a2.servers[server]!.hostIp!, devices: npus.map((n) => die(server, n)) }))));

  it("writes the moved rank's per-host block into its rankEnvironment, and the other ranks keep the job's", async () => {
    // y holds 61000-61031 on server 0; x's rank 0 was re-placed there (its other ranks on server 1) with the same block.
    await create({ cluster: "atlas-a2-demo", name: "y-fail", rankTable: tableOf([{ server: 0, npus: [4, 5, 6, 7] }]), environment: { HCCL_IF_BASE_PORT: "61000", MASTER_PORT: "29600" } });
    const x = await create({ cluster: "atlas-a2-demo", name: "x-fail", rankTable: tableOf([{ server: 0, npus: [0] }, { server: 1, npus: [0, 1, 2] }]), environment: { HCCL_IF_BASE_PORT: "61000" } });
    expect((await conflictWith(x, "y-fail"))?.ports).toEqual({ from: 61000, to: 61031 });
    const response = await routes.plan(jsonRequest("/api/v1/clusters/atlas-a2-demo/ports/plan", "POST", { failover: [{ job: "x-fail", ranks: [0] }], apply: true }, auth()), {
      params: Promise.resolve({ id: "atlas-a2-demo" }),
    });
    expect(response.status).toBe(200);
    const after = await patch(x.id, { state: "running" });
    expect(after.environment).toMatchObject({ HCCL_IF_BASE_PORT: "61000" });
    expect(after.rankEnvironment).toEqual({ "0": { HCCL_IF_BASE_PORT: "61032" } });
    expect(await conflictWith(after, "y-fail")).toBeUndefined();
  });
});
