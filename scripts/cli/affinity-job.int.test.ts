/** `rankscope affinity plan --job` against a real database: the demo A2 cluster, two servers with a stored layout. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { saveServerCpuLayout } from "@/db/queries/cpu-layout";
import { createJob } from "@/db/queries/jobs";
import { seedDemo } from "@/db/seed";
import * as shapes from "@/lib/affinity/fixtures/real-shapes";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { demoFailedJob } from "@/lib/jobs/demo-job";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";

const a2 = demoA2Cluster();
let jobId = 0;

beforeAll(async () => {
  const handle = testDatabase();
  process.env.DATABASE_URL = handle.url;
  await seedDemo(handle.db, [a2]);
  await saveServerCpuLayout(handle.db, a2.slug, a2.servers[0]!.serverId, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoNotDefault, scope: "server" }, systemActor);
  const { rankTable } = demoFailedJob(a2, { phase: "load", servers: 2, culpritRank: 1 });
  jobId = (await createJob(handle, { cluster: a2.slug, name: "cli-affinity", rankTable, environment: { CPU_AFFINITY_CONF: "mode:1" } }, systemActor)).id;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

describe("rankscope affinity plan --job", () => {
  it("prints the env line of the server with a layout, names the one without, and exits 0", async () => {
    const env = await rankscope(["affinity", "plan", "--job", String(jobId), "--reserve", "2", "--format", "env"]);
    expect(env.status, env.stderr).toBe(0);
    expect(env.stdout).toBe(`# Atlas 800T A2: a2-node0\nexport CPU_AFFINITY_CONF=mode:1,npu0:146-156,npu1:157-167,npu2:98-108,npu3:109-119,npu4:2-12,npu5:13-23,npu6:50-60,npu7:61-71\n`);
    const text = await rankscope(["affinity", "plan", "--job", String(jobId)]);
    expect(text.stdout).toMatch(/warning CA012 mode:1.s default range for npu0 \(NPU 0\) is 0-23, but the NPU is on NUMA node 6/);
    expect(text.stdout).toContain("a2-node1 (Atlas 800T A2): no stored CPU layout");
    const json = JSON.parse((await rankscope(["affinity", "plan", "--job", String(jobId), "--format", "json"])).stdout) as { groups: { plan: { value: string } }[] };
    expect(json.groups[0]!.plan.value).toMatch(/^mode:1,npu0:144-155,/);
  });

  it("refuses --job with --lscpu, and an unknown job exits 2", async () => {
    expect((await rankscope(["affinity", "plan", "--job", "1", "--lscpu", "x"])).status).toBe(2);
    const missing = await rankscope(["affinity", "plan", "--job", "999999"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("there is no job 999999");
  });
});
