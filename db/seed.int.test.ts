import { describe, expect, it } from "vitest";
import { demoA2Cluster } from "@/lib/inventory/demo";
import { testDatabase } from "@/test/database";
import { listServerCpuLayouts } from "./queries/cpu-layout";
import { loadJobAffinity } from "./queries/job-affinity";
import { listJobs } from "./queries/jobs-list";
import { seedDemoData } from "./seed";

describe("seedDemoData", () => {
  it("seeds the clusters, faults, CPU layouts and jobs once, and the demo's failed job gets a CPU binding plan on its seeded server", async () => {
    const handle = testDatabase();
    const first = await seedDemoData(handle);
    expect(first).toMatchObject({ clusters: { created: ["atlas-a3-demo", "atlas-a2-demo"] }, cpuLayouts: 1, jobs: 4 });
    expect(first.faults).toBeGreaterThan(0);
    expect(await seedDemoData(handle)).toEqual({ clusters: { created: [], skipped: ["atlas-a3-demo", "atlas-a2-demo"] }, faults: 0, cpuLayouts: 0, jobs: 0 });

    const layouts = await listServerCpuLayouts(handle.db, "atlas-a2-demo");
    expect(layouts.servers.filter((server) => server.stored).map((server) => server.serverId)).toEqual([demoA2Cluster().servers[0]!.serverId]);
    expect((await listServerCpuLayouts(handle.db, "atlas-a3-demo")).servers.some((server) => server.stored)).toBe(false);

    const failed = (await listJobs(handle.db)).find((job) => job.name === "gpt-finetune")!;
    const affinity = await loadJobAffinity(handle.db, failed.id);
    // The failed job runs on a2-node0 (layout seeded) and a2-node1 (none): a plan for one, the other named.
    expect(affinity.withoutLayout).toEqual([{ serverId: "a2-node1", model: "Atlas 800T A2" }]);
    expect(affinity.groups).toHaveLength(1);
    expect(affinity.groups[0]).toMatchObject({ model: "Atlas 800T A2", servers: ["a2-node0"], npus: [0, 1, 2, 3, 4, 5, 6, 7], planError: null });
    expect(affinity.groups[0]!.layout.numaNodes).toHaveLength(8);
    expect(affinity.env).toContain("CPU_AFFINITY_CONF");
  });
});
