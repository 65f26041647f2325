import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { ingestFaultEvents } from "@/db/queries/faults";
import { createJob } from "@/db/queries/jobs";
import { createRankTable, updateRankTable } from "@/db/queries/rank-table-saves";
import { parsedRevisionCount } from "@/db/queries/node-details";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { nodeDetailsSchema, type NodeDetails } from "@/lib/topology/model";
import { withAppDatabase } from "@/test/app-database";
import { testDatabase } from "@/test/database";

withAppDatabase();

let node: typeof import("./route").GET;
let token: string;
let a3: number;
let a2: number;

const minute = 60_000;
const day = 86_400_000;
const now = Date.now();
const at = (msAgo: number) => new Date(now - msAgo).toISOString();

beforeAll(async () => {
  token = (await createApiToken(testDatabase().db, { name: "details-reader", role: "viewer" }, systemActor)).token;
  ({ GET: node } = await import("./route"));
  await seedDemo(testDatabase().db);
  const { rows } = await testDatabase().pool.query<{ id: number; slug: string }>("select id, slug from clusters");
  a3 = rows.find((r) => r.slug === "atlas-a3-demo")!.id;
  a2 = rows.find((r) => r.slug === "atlas-a2-demo")!.id;
});

const context = { params: Promise.resolve({ id: "atlas-a3-demo" }) };
async function details(kind: string, id: string, headers: Record<string, string> = {}): Promise<{ body: NodeDetails; response: Response }> {
  const response = await node(new Request(`http://localhost/x?${new URLSearchParams({ kind, id })}`, { headers: { authorization: `Bearer ${token}`, ...headers } }), context);
  expect(response.status).toBe(200);
  return { body: nodeDetailsSchema.parse(await response.json()), response };
}

async function ingest(events: unknown[]): Promise<void> {
  const result = await ingestFaultEvents(testDatabase(), events, { atomic: "all", actor: systemActor, now });
  expect(result.counts.invalid, JSON.stringify(result.items.filter((i) => i.error))).toBe(0);
}

/** A rank table of the given servers' dies and ranks, as the Rank tables page would save it. */
function rankTableText(servers: { serverId: string; dies: [device: number, rank: number][] }[]): string {
  return JSON.stringify({
    status: "completed",
    version: "1.0",
    server_count: String(servers.length),
    server_list: servers.map((s) => ({
      server_id: s.serverId,
      device: s.dies.map(([device, rank]) => ({ device_id: String(device), device_ip: `10.0.${device}.${rank % 250}`, rank_id: String(rank) })),
    })),
  });
}

describe("GET /api/v1/clusters/{id}/topology/node: recent faults", () => {
  it("has no fault data before the cluster's first fault event", async () => {
    const { body } = await details("die", "sp1-node05/d7");
    expect(body.faults).toBeNull();
  });

  it("lists a node's newest events and those of everything in it, counted, open ones flagged, and nothing of other nodes", async () => {
    const hccl = Array.from({ length: 11 }, (_, i) => ({
      id: `hccl-${i}`,
      cluster: "atlas-a3-demo",
      kind: "hccl-error",
      code: "EI0002",
      target: { server: "sp1-node05", die: 7 },
      beganAt: at((i + 2) * 5 * minute),
      endedAt: at((i + 2) * 5 * minute - 10_000),
    }));
    await ingest([
      ...hccl,
      // Still open: the newest event of the die.
      { id: "chip-open", cluster: "atlas-a3-demo", kind: "npu-chip-fault", code: "80E18402", level: "RestartNPU", target: { server: "sp1-node05", die: 7 }, beganAt: at(3 * minute) },
      // Ten days ago and closed: not recent. Ten days ago and still open: recent.
      { id: "old-closed", cluster: "atlas-a3-demo", kind: "roce-link-down", target: { server: "sp1-node05", die: 7 }, beganAt: at(10 * day), endedAt: at(10 * day - minute) },
      { id: "old-open", cluster: "atlas-a3-demo", kind: "bus-device-fault", target: { server: "sp1-node05", die: 1 }, beganAt: at(10 * day) },
      // A link between a die of this server and one of the next; the server as a whole; another server's die.
      { id: "hccs-link", cluster: "atlas-a3-demo", kind: "hccs-fault", target: { server: "sp1-node05", die: 3, peer: { server: "sp1-node06", die: 3 } }, beganAt: at(2 * day), endedAt: at(2 * day - minute) },
      { id: "node-fault", cluster: "atlas-a3-demo", kind: "node-fault", target: { server: "sp1-node05" }, beganAt: at(3 * day), endedAt: at(3 * day - 10 * minute) },
      { id: "elsewhere", cluster: "atlas-a3-demo", kind: "roce-link-down", target: { server: "sp1-node06", die: 7 }, beganAt: at(minute) },
      // An event of the other demo cluster stays there.
      { id: "other-cluster", cluster: "atlas-a2-demo", kind: "node-fault", target: { server: "a2-node0" }, beganAt: at(minute) },
    ]);

    const asked = Date.now();
    const die = (await details("die", "sp1-node05/d7")).body.faults!;
    const answered = Date.now();
    expect(die).toMatchObject({ total: 12, open: 1, timeline: { target: "sp1-node05/7", open: ["pod:1", "server:sp1-node05"] } });
    // Seven days before the server's clock, down to the minute: bounded by the request's own times, not the file's
    // `now` (a minute or more earlier when the machine is loaded).
    expect(die.since).toBeLessThanOrEqual(answered - 7 * day);
    expect(die.since).toBeGreaterThan(asked - 7 * day - minute);
    expect(die.events).toHaveLength(10);
    expect(die.events[0]).toMatchObject({ id: "api:chip-open", kind: "npu-chip-fault", code: "80E18402", targetKind: "die", targetKey: "die:sp1-node05/7", endedAt: null });
    expect(die.events.slice(1).map((e) => e.id)).toEqual(hccl.slice(0, 9).map((e) => `api:${e.id}`));
    expect(die.events[1]!.endedAt! - die.events[1]!.beganAt).toBe(10_000);

    const server = (await details("server", "sp1-node05")).body.faults!;
    expect(server).toMatchObject({ total: 12 + 1 + 1 + 1, open: 2, timeline: { target: "sp1-node05", open: ["pod:1", "server:sp1-node05"] } });

    const neighbour = (await details("server", "sp1-node06")).body.faults!;
    expect(neighbour.total).toBe(2);
    expect(neighbour.events.map((e) => e.id).sort()).toEqual(["api:elsewhere", "api:hccs-link"]);
    expect(neighbour.events.find((e) => e.id === "api:hccs-link")).toMatchObject({ targetKind: "link", targetKey: "link:sp1-node05/3~sp1-node06/3" });

    const linkEnd = (await details("die", "sp1-node06/d3")).body.faults!;
    expect(linkEnd.events.map((e) => e.id)).toEqual(["api:hccs-link"]);

    const npu = (await details("npu", "sp1-node05/npu0")).body.faults!;
    expect(npu).toMatchObject({ total: 1, open: 1, events: [{ id: "api:old-open", kind: "bus-device-fault", endedAt: null }] });

    const pod = (await details("superpod", "1")).body.faults!;
    expect(pod).toMatchObject({ total: 16, open: 3, timeline: { target: null, open: ["pod:1"] } });
    expect(pod.events[0]!.id).toBe("api:elsewhere");

    const quiet = (await details("superpod", "0")).body.faults!;
    expect(quiet).toMatchObject({ total: 0, open: 0, events: [] });
  });

  it("answers 304 while nothing changed and a new ETag once a fault event of the node arrives", async () => {
    const { response } = await details("die", "sp1-node05/d7");
    const etag = response.headers.get("etag")!;
    const again = await node(
      new Request("http://localhost/x?kind=die&id=sp1-node05%2Fd7", { headers: { authorization: `Bearer ${token}`, "if-none-match": etag } }),
      context,
    );
    expect(again.status).toBe(304);
    await ingest([{ id: "late", cluster: "atlas-a3-demo", kind: "hccl-error", code: "EI0006", target: { server: "sp1-node05", die: 7 }, beganAt: at(30_000), endedAt: at(20_000) }]);
    const { body, response: moved } = await details("die", "sp1-node05/d7", { "if-none-match": etag });
    expect(moved.headers.get("etag")).not.toBe(etag);
    expect(body.faults!.events[0]!.id).toBe("api:late");
    expect(body.faults!.total).toBe(13);
  });
});

describe("GET /api/v1/clusters/{id}/topology/node: a bus plane", () => {
  it("gives a plane its stored switches and uplinks; a cluster without a bus fabric has none", async () => {
    const { body } = await details("plane", "pod:0/ub:4");
    expect(body.node).toMatchObject({ kind: "plane", id: "pod:0/ub:4", superPodId: "0", planeIndex: 4, switches: 8, uplinks: 384, counts: { servers: 48 } });
    expect(body.links).toEqual([]);
    const a2Plane = await node(new Request(`http://localhost/x?kind=plane&id=${encodeURIComponent("pod:0/ub:0")}`, { headers: { authorization: `Bearer ${token}` } }), {
      params: Promise.resolve({ id: "atlas-a2-demo" }),
    });
    expect(a2Plane.status).toBe(404);
  });
});

describe("GET /api/v1/clusters/{id}/topology/node: the fabric", () => {
  it("gives a die its plane ports from the A3 profile: a bus port per plane through chip k, its NPU's RoCE port", async () => {
    const { body } = await details("die", "sp1-node07/d13");
    expect(body.planePorts?.profileId).toBe("atlas-900-a3-superpod");
    expect(body.planePorts?.bus.map((p) => [p.planeKey, p.chipKey, p.dieLinks, p.serverUplinks])).toEqual(
      Array.from({ length: 7 }, (_, k) => [`pod:1/ub:${k}`, `server:sp1-node07/chip:${k}`, 1, 8]),
    );
    expect(body.planePorts?.parameter).toMatchObject({ planeKey: "param", portIndex: 6, sharedBy: 2, portGbps: 400, shape: null, provenance: "assumed" });
    expect((await details("server", "sp1-node07")).body.planePorts).toBeNull();
  });

  it("answers what a node chip's failure takes down: its server cut, the pod degraded, the jobs there", async () => {
    await createJob(
      testDatabase(),
      { cluster: "atlas-a3-demo", name: "fabric-cut", rankTable: rankTableText([{ serverId: "sp1-node07", dies: [[0, 0], [1, 1]] }, { serverId: "sp1-node08", dies: [[0, 2]] }]) },
      systemActor,
    );
    await createJob(testDatabase(), { cluster: "atlas-a3-demo", name: "fabric-near", rankTable: rankTableText([{ serverId: "sp1-node09", dies: [[0, 0]] }]) }, systemActor);
    await createJob(testDatabase(), { cluster: "atlas-a3-demo", name: "fabric-other-pod", rankTable: rankTableText([{ serverId: "sp0-node01", dies: [[0, 0]] }]) }, systemActor);
    const { body } = await details("switch", "server:sp1-node07/chip:3");
    expect(body.node).toMatchObject({ kind: "switch", switchKind: "node-chip", serverId: "sp1-node07", planeKey: "pod:1/ub:3", ports: 48, uplinks: 8 });
    expect(body.impact?.servers[0]).toEqual({ serverId: "sp1-node07", effect: "cut", busShareLost: 1 / 7 });
    expect(body.impact?.servers).toHaveLength(48);
    expect([body.impact?.cutDies, body.impact?.degradedDies]).toEqual([16, 47 * 16]);
    expect(body.impact?.jobs.map((j) => [j.name, j.effect, j.ranks])).toEqual([
      ["fabric-cut", "cut", 3],
      ["fabric-near", "degraded", 1],
    ]);
    const bus = await details("switch", "pod:1/ub:2/sw:5");
    expect(bus.body.node).toMatchObject({ switchKind: "bus-switch", ports: 48 });
    expect(bus.body.impact?.servers.every((s) => s.effect === "degraded" && s.busShareLost === 1 / 56)).toBe(true);
    for (const [cluster, id] of [["atlas-a3-demo", "server:sp1-node07/chip:7"], ["atlas-a3-demo", "pod:1/ub:2/sw:8"], ["atlas-a2-demo", "server:a2-node0/chip:0"]] as const) {
      const missing = await node(new Request(`http://localhost/x?kind=switch&id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token}` } }), {
        params: Promise.resolve({ id: cluster }),
      });
      expect(missing.status, id).toBe(404);
    }
  });

  it("gives the parameter plane its stored shape (unknown for the A3 profile) and RoCE ports", async () => {
    const { body } = await details("plane", "param");
    expect(body.node).toMatchObject({ planeKind: "parameter", shape: null, ports: 768, counts: { servers: 96 } });
    expect((await details("plane", "param/leaf:1")).body.node).toMatchObject({ superPodId: "1", ports: 384 });
  });
});

describe("GET /api/v1/clusters/{id}/topology/node: rank-table memberships", () => {
  it("lists every saved table of the cluster or of no cluster whose latest revision ranks the node, and no other", async () => {
    const db = testDatabase().db;
    const job = await createRankTable(
      db,
      { name: "job-a", clusterId: a3, text: rankTableText([{ serverId: "sp1-node05", dies: [[6, 20], [7, 21]] }, { serverId: "sp1-node06", dies: [[0, 22]] }]) },
      systemActor,
    );
    const loose = await createRankTable(db, { name: "loose", text: rankTableText([{ serverId: "sp1-node05", dies: [[7, 3]] }]) }, systemActor);
    await createRankTable(db, { name: "a2-job", clusterId: a2, text: rankTableText([{ serverId: "sp1-node05", dies: [[7, 0]] }]) }, systemActor);
    await createRankTable(db, { name: "elsewhere", clusterId: a3, text: rankTableText([{ serverId: "sp0-node01", dies: [[7, 0]] }]) }, systemActor);

    const die = (await details("die", "sp1-node05/d7")).body.rankTables;
    expect(die).toEqual([
      { table: null, count: 1, min: 855, max: 855, ranks: [855] },
      { table: { id: job.id, name: "job-a", revision: 1, clusterId: a3 }, count: 1, min: 21, max: 21, ranks: [21] },
      { table: { id: loose.id, name: "loose", revision: 1, clusterId: null }, count: 1, min: 3, max: 3, ranks: [3] },
    ]);
    const server = (await details("server", "sp1-node05")).body.rankTables;
    expect(server.map((m) => [m.table?.name ?? "inventory", m.count, m.min, m.max])).toEqual([
      ["inventory", 16, 848, 863],
      ["job-a", 2, 20, 21],
      ["loose", 1, 3, 3],
    ]);
    const pod = (await details("superpod", "1")).body.rankTables;
    expect(pod.find((m) => m.table?.name === "job-a")).toMatchObject({ count: 3, min: 20, max: 22 });
    expect((await details("server", "sp0-node01")).body.rankTables.map((m) => m.table?.name ?? "inventory")).toEqual(["inventory", "elsewhere"]);

    // Only the latest revision counts: job-a no longer ranks die 7.
    await updateRankTable(db, job.id, 1, { text: rankTableText([{ serverId: "sp1-node05", dies: [[6, 20]] }]) }, systemActor);
    const moved = (await details("die", "sp1-node05/d7")).body.rankTables;
    expect(moved.map((m) => m.table?.name ?? "inventory")).toEqual(["inventory", "loose"]);
    expect((await details("server", "sp1-node05")).body.rankTables.find((m) => m.table?.name === "job-a")).toMatchObject({ table: { revision: 2 }, count: 1, ranks: [20] });
  });

  it("parses a revision once: later clicks read only which revisions are the latest", async () => {
    await details("server", "sp1-node04");
    const parsed = parsedRevisionCount();
    await details("server", "sp1-node03");
    await details("die", "sp1-node05/d6");
    expect(parsedRevisionCount()).toBe(parsed);
  });
});
