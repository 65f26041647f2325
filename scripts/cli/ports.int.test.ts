/** `rankscope ports check|plan` against a real database: the demo A2 cluster with two jobs on the default ports. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createJob } from "@/db/queries/jobs";
import { seedDemo } from "@/db/seed";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { completedA3Table } from "@/lib/jobs/fixtures/rings-config";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";

const a2 = demoA2Cluster();
const table = (from: number) =>
  JSON.stringify(completedA3Table(a2.servers.slice(0, 2).map((s) => ({ serverId: s.hostIp!, devices: s.npus.slice(from, from + 4).map((n) => ({ id: n.dies[0]!.deviceId, ip: n.dies[0]!.deviceIp! })) }))));

beforeAll(async () => {
  const handle = testDatabase();
  process.env.DATABASE_URL = handle.url;
  await seedDemo(handle.db, [a2]);
  await createJob(handle, { cluster: "atlas-a2-demo", name: "bert", rankTable: table(0) }, systemActor);
  await createJob(handle, { cluster: "atlas-a2-demo", name: "gpt", state: "pending", rankTable: table(4) }, systemActor);
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

describe("rankscope ports", () => {
  it("check finds the pending job on the running job's HCCL block, in Chinese too, and exits 1", async () => {
    const checked = await rankscope(["ports", "check", "--cluster", "atlas-a2-demo", "--lang", "zh"]);
    expect(checked.status, checked.stderr).toBe(1);
    expect(checked.stdout).toMatch(/error PT001 .*作业“bert”.*作业“gpt”/);
  });

  it("plan prints env lines for the pending job, applies them, and check then finds no conflict", async () => {
    const env = await rankscope(["ports", "plan", "--cluster", "atlas-a2-demo", "--format", "env"]);
    expect(env.stdout).toContain("# job gpt\nexport HCCL_IF_BASE_PORT=61000\n");
    const applied = await rankscope(["ports", "plan", "--cluster", "atlas-a2-demo", "--apply"]);
    expect(applied.stdout).toMatch(/applied to 1 job/);
    const json = await rankscope(["ports", "check", "--cluster", "atlas-a2-demo", "--job", "gpt", "--format", "json"]);
    const report = JSON.parse(json.stdout) as { findings: { code: string }[] };
    expect(report.findings.filter((f) => f.code === "PT001")).toEqual([]);
  });

  it("names an unknown job and exits 2", async () => {
    const missing = await rankscope(["ports", "check", "--cluster", "atlas-a2-demo", "--job", "nope"]);
    expect(missing).toMatchObject({ status: 2 });
    expect(missing.stderr).toContain("no live job nope");
  });
});
