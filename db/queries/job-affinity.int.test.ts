import { describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import * as shapes from "@/lib/affinity/fixtures/real-shapes";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { demoFailedJob } from "@/lib/jobs/demo-job";
import { testDatabase } from "@/test/database";
import { systemActor } from "./audit";
import { listServerCpuLayouts, saveServerCpuLayout } from "./cpu-layout";
import { keptAffinity, loadJobAffinity } from "./job-affinity";
import { createJob, updateJob } from "./jobs";

/** A2 nodes 0-1 are Atlas 800T A2 (NPU0 on node 6), node 2 labelled Atlas 800T A3 (the second model the schema knows; its NPUs stay A2-shaped: only the grouping matters here) with the default mapping, node 3 unknown. */
function mixedCluster() {
  const spec = { ...demoA2Cluster(4), slug: "mixed-a2", name: "mixed A2" };
  spec.servers = spec.servers.map((server, i) => (i >= 2 ? { ...server, model: "Atlas 800T A3" } : server));
  return spec;
}

describe("a job's CPU binding across two server models", () => {
  it("checks and plans one line per model, splits a model whose servers differ, and lists servers without a layout", async () => {
    const handle = testDatabase();
    const spec = mixedCluster();
    await seedDemo(handle.db, [spec]);
    const [node0, node1, node2, node3] = spec.servers.map((server) => server.serverId);
    await saveServerCpuLayout(handle.db, "mixed-a2", node0!, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoNotDefault, scope: "model" }, systemActor);
    await saveServerCpuLayout(handle.db, "mixed-a2", node2!, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoDefault, scope: "server" }, systemActor);
    expect((await listServerCpuLayouts(handle.db, "mixed-a2")).servers.map((s) => [s.serverId, s.model, s.stored])).toEqual([
      [node0, "Atlas 800T A2", true],
      [node1, "Atlas 800T A2", true],
      [node2, "Atlas 800T A3", true],
      [node3, "Atlas 800T A3", false],
    ]);
    const { rankTable } = demoFailedJob(spec, { phase: "load", servers: 4, culpritRank: 1 });
    const job = await createJob(handle, { cluster: "mixed-a2", name: "mixed-job", rankTable, environment: { CPU_AFFINITY_CONF: "mode:1", HOME: "/root" } }, systemActor);
    expect(job.placement).toMatchObject({ ranks: 32, placed: 32, servers: 4 });

    const view = await loadJobAffinity(handle.db, job.id);
    expect(view).toMatchObject({ jobId: job.id, cluster: "mixed-a2", value: "mode:1", visibleDevices: null, options: { reserve: 0, mode: 1 } });
    expect(view.withoutLayout).toEqual([{ serverId: node3, model: "Atlas 800T A3" }]);
    expect(view.groups.map((g) => [g.key, g.servers, g.npus.length, g.partOfModel])).toEqual([
      ["Atlas 800T A2", [node0, node1], 8, false],
      ["Atlas 800T A3", [node2], 8, false],
    ]);
    const [training, inference] = view.groups;
    // The default mapping holds on the A3-labelled server: mode:1 is clean and stays the plan.
    expect(inference!.check!.findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(inference!.plan).toMatchObject({ value: "mode:1", usesDefault: true });
    // On the 800T every NPU's default block is on a remote node (CA012), and the plan gives each its own node.
    expect(training!.check!.findings.filter((f) => f.code === "CA012")).toHaveLength(8);
    expect(training!.plan!.value).toBe("mode:1,npu0:144-155,npu1:156-167,npu2:96-107,npu3:108-119,npu4:0-11,npu5:12-23,npu6:48-59,npu7:60-71");
    expect(view.env).toBe(
      `# Atlas 800T A2: ${node0}, ${node1}\nexport CPU_AFFINITY_CONF=${training!.plan!.value}\n\n# Atlas 800T A3: ${node2}\nexport CPU_AFFINITY_CONF=mode:1`,
    );

    // Keeping 2 cores per node and pinning main threads: the A3-labelled server can no longer use the default blocks either.
    const tuned = await loadJobAffinity(handle.db, job.id, { reserve: 2, mode: 2 });
    expect(tuned.groups[1]!.plan).toMatchObject({ mode: 2, usesDefault: false });
    expect(tuned.groups[1]!.plan!.value).toMatch(/^mode:2,npu0:2-23,npu1:26-47,/);

    // node1 gets another layout: the 800T line splits into one per server.
    await saveServerCpuLayout(handle.db, "mixed-a2", node1!, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoInterleavedFlushHeader, scope: "server" }, systemActor);
    const split = await loadJobAffinity(handle.db, job.id);
    expect(split.groups.map((g) => [g.key, g.servers, g.partOfModel])).toEqual([
      [`Atlas 800T A2/${node0}`, [node0], true],
      [`Atlas 800T A2/${node1}`, [node1], true],
      ["Atlas 800T A3", [node2], false],
    ]);
    expect(split.groups[1]!.plan!.value).toBe("mode:1,npu0:144-155,npu1:0-11,npu2:156-167,npu3:12-23,npu4:96-107,npu5:48-59,npu6:108-119,npu7:60-71");
  });

  it("checks the job's npu<N> against ASCEND_RT_VISIBLE_DEVICES, says why no plan fits, and 404s an unknown job", async () => {
    const handle = testDatabase();
    const spec = mixedCluster();
    await seedDemo(handle.db, [spec]);
    const node0 = spec.servers[0]!.serverId;
    // lscpu only: the NPUs' nodes are unknown, so no plan (topo_required) but the value is still read.
    await saveServerCpuLayout(handle.db, "mixed-a2", node0, { lscpu: shapes.kunpeng920Lscpu, scope: "server" }, systemActor);
    const { rankTable } = demoFailedJob(spec, { phase: "load", servers: 1, culpritRank: 1 });
    const job = await createJob(
      handle,
      { cluster: "mixed-a2", name: "visible-job", rankTable, environment: { CPU_AFFINITY_CONF: "mode:1,npu9:0-3", ASCEND_RT_VISIBLE_DEVICES: "0,1,2,3,4,5,6,7" } },
      systemActor,
    );
    const view = await loadJobAffinity(handle.db, job.id);
    expect(view.groups).toHaveLength(1);
    expect(view.groups[0]!.planError).toMatchObject({ code: "topo_required" });
    expect(view.groups[0]!.check!.findings.map((f) => f.code)).toContain("CA011");
    expect(view.env).toBe("");
    await expect(loadJobAffinity(handle.db, 999_999)).rejects.toMatchObject({ kind: "not_found" });
  });

  it("keeps the answer until the job or a CPU layout of its cluster is written, then answers from the write", async () => {
    const handle = testDatabase();
    const spec = mixedCluster();
    await seedDemo(handle.db, [spec]);
    const [node0, node1] = spec.servers.map((server) => server.serverId);
    await saveServerCpuLayout(handle.db, "mixed-a2", node0!, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoNotDefault, scope: "model" }, systemActor);
    const { rankTable } = demoFailedJob(spec, { phase: "load", servers: 2, culpritRank: 1 });
    const job = await createJob(handle, { cluster: "mixed-a2", name: "kept-job", rankTable, environment: { CPU_AFFINITY_CONF: "mode:1" } }, systemActor);
    const computations = () => keptAffinity.computed;
    const start = computations();

    const first = await loadJobAffinity(handle.db, job.id);
    expect(await loadJobAffinity(handle.db, job.id)).toBe(first);
    expect(computations()).toBe(start + 1);
    expect(first.value).toBe("mode:1");
    expect(first.groups.map((g) => g.servers)).toEqual([[node0, node1]]);
    // Other options are another answer, computed once and kept as well.
    await loadJobAffinity(handle.db, job.id, { reserve: 2 });
    await loadJobAffinity(handle.db, job.id, { reserve: 2 });
    expect(computations()).toBe(start + 2);

    // A write to the job (its environment) gives an answer with the new value.
    await updateJob(handle, job.id, { environment: { CPU_AFFINITY_CONF: "mode:2" } }, systemActor);
    const rewritten = await loadJobAffinity(handle.db, job.id);
    expect(computations()).toBe(start + 3);
    expect(rewritten.value).toBe("mode:2");
    expect(await loadJobAffinity(handle.db, job.id)).toBe(rewritten);

    // A write to one of its servers' CPU layout splits the model's line.
    await saveServerCpuLayout(handle.db, "mixed-a2", node1!, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoInterleavedFlushHeader, scope: "server" }, systemActor);
    const relaid = await loadJobAffinity(handle.db, job.id);
    expect(computations()).toBe(start + 4);
    expect(relaid.groups.map((g) => g.servers)).toEqual([[node0], [node1]]);
    // Writing it back as it was joins the line again.
    await saveServerCpuLayout(handle.db, "mixed-a2", node1!, { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoNotDefault, scope: "server" }, systemActor);
    expect((await loadJobAffinity(handle.db, job.id)).groups.map((g) => g.servers)).toEqual([[node0, node1]]);
    expect(computations()).toBe(start + 5);
  });
});
