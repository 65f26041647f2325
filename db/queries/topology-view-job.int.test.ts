/**
 * A job over an aggregated view (`topology?job=`) against PostgreSQL: its dies per rack of a super pod drawn by rack,
 * kept between requests while the job is unchanged and read again once it is placed elsewhere (the ETag with it).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { completedA3Table, ringsConfigMap } from "@/lib/jobs/fixtures/rings-config";
import { largeA3Cluster } from "@/lib/topology/large-cluster";
import type { TopologyView } from "@/lib/topology/model";
import { testDatabase } from "@/test/database";
import { systemActor } from "./audit";
import { getClusterOrThrow } from "./clusters";
import { ingestRingsConfig } from "./jobs-rings-config";
import { loadTopologyView } from "./topology-view";

// One super pod of 70 servers: drawn by rack (8 servers of 8 NPUs a rack).
const spec = largeA3Cluster(1, [70], "job-racks");

beforeAll(async () => {
  await seedDemo(testDatabase().db, [spec]);
});

/** A completed rings-config table over these servers' dies. */
const post = (servers: string[], version: string) => {
  const table = completedA3Table(
    spec.servers.filter((s) => servers.includes(s.serverId)).map((s) => ({ serverId: s.serverId, devices: s.npus.flatMap((n) => n.dies.map((d) => ({ id: d.deviceId, ip: d.deviceIp! }))) })),
  );
  return ingestRingsConfig(testDatabase(), spec.slug, ringsConfigMap({ job: "racked", table, version }), systemActor);
};
const jobCells = (view: TopologyView) => view.nodes.filter((n) => n.job).map((n) => [n.id, n.job]);

describe("a job over a super pod drawn by rack", () => {
  it("counts its dies per rack, and again once the job moves to another rack", async () => {
    const handle = testDatabase();
    const cluster = await getClusterOrThrow(handle.db, spec.slug);
    const { job } = await post(["p0-s000", "p0-s001", "p0-s009"], "1");
    const load = () => loadTopologyView(handle, cluster, "superpod", "pod-0", undefined, job.id);
    const first = await load();
    expect(jobCells(await first.build())).toEqual([
      ["pod-0/rack0", { dies: 32, faulty: 0, degraded: 0 }],
      ["pod-0/rack1", { dies: 16, faulty: 0, degraded: 0 }],
    ]);
    expect((await load()).faultsVersion).toBe(first.faultsVersion);

    await post(["p0-s020"], "2");
    const moved = await load();
    expect(moved.faultsVersion).not.toBe(first.faultsVersion);
    expect(jobCells(await moved.build())).toEqual([["pod-0/rack2", { dies: 16, faulty: 0, degraded: 0 }]]);
  });

  it("refuses a job of another cluster", async () => {
    const handle = testDatabase();
    const cluster = await getClusterOrThrow(handle.db, spec.slug);
    await expect(loadTopologyView(handle, cluster, "superpod", "pod-0", undefined, 999_999)).rejects.toMatchObject({ kind: "not_found" });
  });
});
