import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { completedA3Table, ringsConfigMap } from "@/lib/jobs/fixtures/rings-config";
import { testDatabase } from "@/test/database";
import { systemActor } from "./audit";
import { loadJobDies, loadJobRanksPage, loadJobRankTable, loadJobSummary } from "./job-ranks";
import { createJob, getJob } from "./jobs";
import { ingestRingsConfig } from "./jobs-rings-config";

const a3 = demoA3Cluster();
let big = 0;
let clusterId = 0;
let single = 0;

/** A table over the A3 demo's servers `[from, to)` of each pod, all 16 dies each, ranks in order, plus strays. */
function table(pods: number[], servers: number, strays: { serverId: string; devices: { id: number; ip: string }[] }[] = []) {
  const chosen = pods.flatMap((pod) => a3.servers.filter((s) => s.superPodId === String(pod)).slice(0, servers));
  const list = chosen.map((s) => ({ serverId: s.serverId, devices: s.npus.flatMap((n) => n.dies.map((d) => ({ id: d.deviceId, ip: d.deviceIp! }))) }));
  return JSON.stringify(completedA3Table([...list, ...strays]));
}

beforeAll(async () => {
  const handle = testDatabase();
  await seedDemo(handle.db, [a3]);
  // 2 pods × 3 servers × 16 dies = 96 placed ranks; then 2 on a server the inventory lacks, 1 on a device it lacks.
  const strays = [
    { serverId: "nowhere-1", devices: [{ id: 0, ip: "10.99.0.1" }, { id: 1, ip: "10.99.0.2" }] },
    { serverId: "sp0-node00", devices: [{ id: 40, ip: "10.99.0.3" }] },
  ];
  const created = await createJob(handle, { cluster: "atlas-a3-demo", name: "paged", rankTable: table([0, 1], 3, strays) }, systemActor);
  big = created.id;
  clusterId = created.cluster.id;
  single = (await createJob(handle, { cluster: "atlas-a3-demo", name: "one-server", rankTable: table([1], 1) }, systemActor)).id;
});

describe("job summary", () => {
  it("counts every rank, per reason and per super pod, and carries the first page only, problems first", async () => {
    const summary = (await loadJobSummary(testDatabase().db, big))!;
    expect(summary.counts).toEqual({ total: 99, placed: 96, unmatched: 3, ipDiffers: 0, tableServers: 7, byReason: { "no-rank": 0, "unknown-server": 2, "unknown-device": 1 } });
    expect(summary.pods).toEqual([
      { superPodId: "0", ranks: 48, servers: 3 },
      { superPodId: "1", ranks: 48, servers: 3 },
    ]);
    expect(summary.scope).toEqual({ level: "cluster", id: null, aggregated: false });
    expect(summary.ranks.total).toBe(99);
    expect(summary.ranks.items).toHaveLength(50);
    expect(summary.ranks.items.slice(0, 3).map((r) => r.unmatched)).toEqual(["unknown-server", "unknown-server", "unknown-device"]);
    expect(summary.ranks.items[3]).toMatchObject({ rank: 0, dieId: "sp0-node00/d0", match: "server-and-device" });
    expect(summary.rankTableBytes).toBe(Buffer.byteLength((await loadJobRankTable(testDatabase().db, big))!));
    expect(summary).not.toHaveProperty("rankTableText");
    // The page's counts agree with the whole job's.
    const whole = (await getJob(testDatabase().db, big))!;
    expect(whole.ranks.filter((r) => r.dieId === null)).toHaveLength(summary.counts.unmatched);
  });

  it("scopes a job on one server to that server, and one pod to that pod", async () => {
    const summary = (await loadJobSummary(testDatabase().db, single))!;
    expect(summary.scope).toEqual({ level: "server", id: "sp1-node00", aggregated: false });
    expect(summary.pods).toEqual([{ superPodId: "1", ranks: 16, servers: 1 }]);
    const dies = (await loadJobDies(testDatabase().db, single))!;
    expect(dies.aggregated).toBe(false);
    expect(dies.dies).toHaveLength(16);
    expect(dies.dies[0]).toEqual(["sp1-node00/d0", 0, expect.any(String)]);
    expect(await loadJobSummary(testDatabase().db, 999_999)).toBeUndefined();
  });
});

describe("job dies", () => {
  it("keeps a job's dies while it is unchanged, and answers its new dies once it is placed again", async () => {
    const handle = testDatabase();
    const post = (pod: number, version: string) =>
      ingestRingsConfig(handle, "atlas-a3-demo", ringsConfigMap({ job: "moving", table: JSON.parse(table([pod], 1)), version }), systemActor);
    const { job } = await post(0, "1");
    const first = (await loadJobDies(handle.db, job.id))!;
    expect(first.scope).toEqual({ level: "server", id: "sp0-node00", aggregated: false });
    expect(await loadJobDies(handle.db, job.id)).toBe(first);
    await post(1, "2");
    const moved = (await loadJobDies(handle.db, job.id))!;
    expect(moved.scope).toEqual({ level: "server", id: "sp1-node00", aggregated: false });
    expect(moved.dies.map(([die]) => die)).toEqual(Array.from({ length: 16 }, (_, k) => `sp1-node00/d${k}`));
    expect(await loadJobDies(handle.db, 999_999)).toBeUndefined();
  });

  it("keeps a job's counts and scope while it is unchanged, and counts its new placement once it is placed again", async () => {
    const handle = testDatabase();
    const post = (pods: number[], version: string) =>
      ingestRingsConfig(handle, "atlas-a3-demo", ringsConfigMap({ job: "recounted", table: JSON.parse(table(pods, 2)), version }), systemActor);
    const { job } = await post([0], "1");
    const first = (await loadJobSummary(handle.db, job.id))!;
    expect(first.counts.placed).toBe(32);
    expect(first.scope).toEqual({ level: "superpod", id: "0", aggregated: false });
    const again = (await loadJobSummary(handle.db, job.id))!;
    // The same kept objects: nothing was counted again.
    expect(again.counts).toBe(first.counts);
    expect(again.scope).toBe(first.scope);
    await post([0, 1], "2");
    const moved = (await loadJobSummary(handle.db, job.id))!;
    expect(moved.counts.placed).toBe(64);
    expect(moved.pods.map((pod) => [pod.superPodId, pod.ranks])).toEqual([["0", 32], ["1", 32]]);
    expect(moved.scope).toEqual({ level: "cluster", id: null, aggregated: false });
    expect((await loadJobDies(handle.db, job.id))!.scope).toEqual(moved.scope);
  });
});

describe("job ranks pages", () => {
  const page = (query: Parameters<typeof loadJobRanksPage>[3]) => loadJobRanksPage(testDatabase().db, big, clusterId, query);

  it("pages through every rank once, in order, with the total on each page", async () => {
    const seen: (number | null)[] = [];
    for (let offset = 0; offset < 99; offset += 20) {
      const p = await page({ offset, limit: 20, sort: "position" });
      expect(p.total).toBe(99);
      seen.push(...p.items.map((r) => r.rank));
    }
    expect(seen).toEqual([...Array.from({ length: 96 }, (_, i) => i), 96, 97, 98]);
    expect(await page({ offset: 500, limit: 20 })).toEqual({ total: 99, offset: 500, limit: 20, items: [] });
  });

  it("filters by state, pod and server, searches, and sorts both ways", async () => {
    expect((await page({ state: "unmatched" })).items.map((r) => r.serverId)).toEqual(["nowhere-1", "nowhere-1", "sp0-node00"]);
    expect((await page({ state: "placed" })).total).toBe(96);
    const pod1 = await page({ pod: "1", limit: 500 });
    expect(pod1.total).toBe(48);
    expect(pod1.items.every((r) => r.dieId!.startsWith("sp1-"))).toBe(true);
    expect((await page({ server: "sp0-node01" })).total).toBe(16);
    expect((await page({ q: "42" })).items.map((r) => r.rank)).toContain(42);
    expect((await page({ q: "nowhere" })).total).toBe(2);
    expect((await page({ q: "50%_" })).total).toBe(0);
    expect((await page({ sort: "rank", order: "desc", limit: 2 })).items.map((r) => r.rank)).toEqual([98, 97]);
    expect((await page({ sort: "rank", order: "asc", limit: 1 })).items[0]!.rank).toBe(0);
    const byDevice = await page({ sort: "device", order: "desc", limit: 1 });
    expect(byDevice.items[0]).toMatchObject({ deviceId: 40, serverId: "sp0-node00" });
  });
});
