import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { ingestFaultEvents } from "@/db/queries/faults";
import { insertCluster } from "@/db/queries/inventory";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { largeA2Cluster, largeA3Cluster } from "@/lib/topology/large-cluster";
import { topologyViewSchema } from "@/lib/topology/model";
import { withAppDatabase } from "@/test/app-database";
import { testDatabase } from "@/test/database";

withAppDatabase();

let view: typeof import("./route").GET;
let search: typeof import("./search/route").GET;
let node: typeof import("./node/route").GET;
let token: string;

beforeAll(async () => {
  token = (await createApiToken(testDatabase().db, { name: "topology-reader", role: "viewer" }, systemActor)).token;
  ({ GET: view } = await import("./route"));
  ({ GET: search } = await import("./search/route"));
  ({ GET: node } = await import("./node/route"));
  await seedDemo(testDatabase().db);
});

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

describe("GET /api/v1/clusters/{id}/topology", () => {
  it("answers the cluster view by slug or id, in the documented shape", async () => {
    const response = await view(get("/api/v1/clusters/atlas-a3-demo/topology"), context("atlas-a3-demo"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    const body = topologyViewSchema.parse(await response.json());
    expect(body.level).toBe("cluster");
    expect(body.counts).toEqual({ superPods: 2, servers: 96, npus: 768, dies: 1536 });
    expect(body.nodes[0]).toMatchObject({ id: "0", kind: "superpod", label: "Super pod 0", health: "unknown", drillable: true });
    // The pods do not link to each other: they attach to the parameter plane, whose shape the A3 profile does not know.
    expect(body.links).toEqual([]);
    expect(body.nodes.filter((n) => n.kind === "plane")).toMatchObject([{ id: "param", planeKind: "parameter", shape: null, ports: 768, counts: { servers: 96 } }]);

    const byId = await view(get(`/api/v1/clusters/${body.cluster.id}/topology?level=cluster`), context(String(body.cluster.id)));
    expect(byId.headers.get("etag")).toBe(response.headers.get("etag"));
  });

  it("drills into a super pod and a server by the node ids it returned", async () => {
    const pod = await (await view(get("/x?level=superpod&id=1"), context("atlas-a3-demo"))).json();
    const server = pod.nodes.find((n: { kind: string }) => n.kind === "server");
    expect(server.id).toBe("sp1-node00");
    const response = await view(get(`/x?level=server&id=${encodeURIComponent(server.id)}`), context("atlas-a3-demo"));
    const body = await response.json();
    expect(body.nodes.filter((n: { kind: string }) => n.kind === "die")).toHaveLength(16);
    expect(body.links.filter((l: { kind: string }) => l.kind === "backup-rail")).toHaveLength(8);
    expect(body.nodes.find((n: { id: string }) => n.id === "sp1-node00/d0")).toMatchObject({
      deviceIp: "192.168.49.6",
      backupDeviceIp: "192.168.49.7",
      devicePort: 16666,
      backupDevicePort: 16667,
      hostPort: 16665,
      rank: 768,
    });
  });

  it("answers 304 to a matching If-None-Match, and a new ETag once the inventory revision moves", async () => {
    const first = await view(get("/x?level=superpod&id=0"), context("atlas-a3-demo"));
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"c\d+-r1-/);
    const again = await view(get("/x?level=superpod&id=0", { "if-none-match": etag }), context("atlas-a3-demo"));
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    const other = await view(get("/x?level=superpod&id=1", { "if-none-match": etag }), context("atlas-a3-demo"));
    expect(other.status).toBe(200);

    await testDatabase().pool.query("update clusters set inventory_revision = inventory_revision + 1 where slug = 'atlas-a3-demo'");
    const moved = await view(get("/x?level=superpod&id=0", { "if-none-match": etag }), context("atlas-a3-demo"));
    expect(moved.status).toBe(200);
    expect(moved.headers.get("etag")).toMatch(/^"c\d+-r2-/);
  });

  it("answers 404 for an unknown cluster or node and 400 for a bad query, in the standard error shape", async () => {
    const noCluster = await view(get("/x"), context("no-such-cluster"));
    expect(noCluster.status).toBe(404);
    expect(await noCluster.json()).toEqual({ error: { code: "not_found", message: 'no cluster "no-such-cluster"' } });
    const noPod = await view(get("/x?level=superpod&id=7"), context("atlas-a3-demo"));
    expect(noPod.status).toBe(404);
    expect((await noPod.json()).error.code).toBe("not_found");
    const noServer = await view(get("/x?level=server&id=nope"), context("atlas-a2-demo"));
    expect(noServer.status).toBe(404);
    const bad = await view(get("/x?level=rack"), context("atlas-a3-demo"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_request");
    const missing = await view(get("/x?level=server"), context("atlas-a3-demo"));
    expect(missing.status).toBe(400);
  });

  it("needs credentials (a viewer may read)", async () => {
    const response = await view(new Request("http://localhost/x"), context("atlas-a3-demo"));
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthenticated");
    const searched = await search(new Request("http://localhost/x?q=1"), context("atlas-a3-demo"));
    expect(searched.status).toBe(401);
    const details = await node(new Request("http://localhost/x?kind=superpod&id=0"), context("atlas-a3-demo"));
    expect(details.status).toBe(401);
  });

  it("serves a 16,384-die cluster", async () => {
    await insertCluster(testDatabase().db, largeA3Cluster(32, 32));
    const response = await view(get("/x"), context("atlas-a3-large"));
    const body = await response.json();
    expect(body.counts.dies).toBe(16_384);
    expect(body.nodes).toHaveLength(32 + 1024 + 1); // pods, servers and the parameter plane
    const pod = await (await view(get("/x?level=superpod&id=pod-31"), context("atlas-a3-large"))).json();
    expect(pod.nodes.filter((n: { kind: string }) => n.kind === "die")).toHaveLength(512);
  });
});

describe("GET /api/v1/clusters/{id}/topology at scale: aggregates and neighbourhoods", () => {
  it("draws a pod of too many servers as rack aggregates with their health distribution, which sums to the pod's dies", async () => {
    // Pod 0 of 65 servers (1,040 dies, past the super pod view's threshold), pod 1 of 2.
    await insertCluster(testDatabase().db, largeA3Cluster(2, [65, 2], "big-pod"));
    await ingestFaultEvents(testDatabase(), [{ cluster: "big-pod", kind: "npu-chip-fault", level: "SeparateNPU", target: { server: "p0-s040", die: 3 }, beganAt: Date.now() - 60_000 }], {
      atomic: "all",
      actor: systemActor,
    });
    const body = topologyViewSchema.parse(await (await view(get("/x?level=superpod&id=pod-0"), context("big-pod"))).json());
    // Racks of 64 NPUs (8 servers of 8): 65 servers are 9 racks, each one aggregate cell.
    const racks = body.nodes.filter((n) => n.kind === "rack");
    expect(racks).toHaveLength(9);
    expect(racks.every((n) => n.aggregated)).toBe(true);
    expect(body.nodes.some((n) => n.kind === "die" || n.kind === "server")).toBe(false);
    expect(body.health).toEqual({ healthy: 1039, degraded: 0, faulty: 1, unknown: 0 });
    const sum = { healthy: 0, degraded: 0, faulty: 0, unknown: 0 };
    for (const rack of racks) for (const tone of Object.keys(sum) as (keyof typeof sum)[]) sum[tone] += rack.healthCounts![tone];
    expect(sum).toEqual(body.health);
    // p0-s040 is the first server of rack 5 (servers 40–47).
    expect(body.nodes.find((n) => n.id === "pod-0/rack5")).toMatchObject({ health: "faulty", healthCounts: { healthy: 127, faulty: 1, degraded: 0, unknown: 0 } });
    // The cluster view carries the same counts on the pod.
    const cluster = topologyViewSchema.parse(await (await view(get("/x"), context("big-pod"))).json());
    expect(cluster.nodes.find((n) => n.kind === "superpod" && n.id === "pod-0")!.healthCounts).toEqual(body.health);
  });

  it("draws plain servers past a row's worth of racks as rows of racks, each summing its racks' dies and health; a row opens to its racks; a rack and a server keep their links, the row in their path", async () => {
    // 1,040 plain servers: 130 racks of 8, rows of 128 racks: row0 (1,024 servers) and row1 (16).
    await insertCluster(testDatabase().db, largeA2Cluster(1040, "plain-rows"));
    const faults = ["a2-0100", "a2-0101", "a2-0900"].map((server, i) => ({ cluster: "plain-rows", kind: "npu-chip-fault" as const, level: "SeparateNPU" as const, target: { server, die: i }, beganAt: Date.now() - 60_000 }));
    await ingestFaultEvents(testDatabase(), faults, { atomic: "all", actor: systemActor });
    const cluster = topologyViewSchema.parse(await (await view(get("/x"), context("plain-rows"))).json());
    const rows = cluster.nodes.filter((n) => n.kind === "row");
    expect(rows.map((n) => [n.id, n.aggregated, n.counts])).toEqual([
      ["row0", true, { servers: 1024, npus: 8192, dies: 8192 }],
      ["row1", true, { servers: 16, npus: 128, dies: 128 }],
    ]);
    expect(cluster.nodes.some((n) => n.kind === "rack" || n.kind === "server")).toBe(false);
    expect(cluster.health).toEqual({ healthy: 8317, degraded: 0, faulty: 3, unknown: 0 });
    expect(rows.map((n) => [n.health, n.healthCounts])).toEqual([
      ["faulty", { healthy: 8189, degraded: 0, faulty: 3, unknown: 0 }],
      ["healthy", { healthy: 128, degraded: 0, faulty: 0, unknown: 0 }],
    ]);

    const row = await view(get("/x?level=row&id=row0"), context("plain-rows"));
    expect(row.status).toBe(200);
    const rowBody = topologyViewSchema.parse(await row.json());
    expect(rowBody.path.map((crumb) => [crumb.level, crumb.id])).toEqual([
      ["cluster", null],
      ["row", "row0"],
    ]);
    const racks = rowBody.nodes.filter((n) => n.kind === "rack");
    expect(racks).toHaveLength(128);
    expect(rowBody.health).toEqual(rows[0]!.healthCounts);
    // a2-0100 and a2-0101 are in rack 12 (servers 96–103), a2-0900 in rack 112.
    expect(racks.filter((n) => n.health === "faulty").map((n) => [n.id, n.healthCounts!.faulty])).toEqual([
      ["rack12", 2],
      ["rack112", 1],
    ]);

    // A link to a rack or a server made before rows existed still lands there; its path runs through the row.
    const rack = topologyViewSchema.parse(await (await view(get("/x?level=rack&id=rack112"), context("plain-rows"))).json());
    expect(rack.path.map((crumb) => crumb.id)).toEqual([null, "row0", "rack112"]);
    const server = topologyViewSchema.parse(await (await view(get("/x?level=server&id=a2-0900"), context("plain-rows"))).json());
    expect(server.path.map((crumb) => crumb.id)).toEqual([null, "row0", "rack112", "a2-0900"]);
    expect((await (await search(get("/x?q=a2-0900"), context("plain-rows"))).json()).hits[0]).toMatchObject({ id: "a2-0900", rackId: "rack112" });
    const details = await (await node(get("/x?kind=row&id=row1"), context("plain-rows"))).json();
    expect(details.node).toMatchObject({ id: "row1", kind: "row", counts: { servers: 16, npus: 128, dies: 128 }, health: "healthy" });
    expect(details.links).toEqual([{ kind: "roce", peer: "row0", peerKind: "row", peerLabel: "Row 0 · a2-0000 – a2-1023", count: 8 }]);
    expect((await view(get("/x?level=row&id=row2"), context("plain-rows"))).status).toBe(404);
  });

  it("expands a server view N hops along the chosen link kinds, bounded, with its own ETag, and refuses hops elsewhere", async () => {
    const plain = await view(get("/x?level=server&id=p0-s010"), context("big-pod"));
    const around = await view(get("/x?level=server&id=p0-s010&hops=2&via=hccs"), context("big-pod"));
    expect(around.status).toBe(200);
    expect(around.headers.get("etag")).not.toBe(plain.headers.get("etag"));
    const body = topologyViewSchema.parse(await around.json());
    expect(body.neighbourhood).toMatchObject({ from: null, hops: 2, kinds: ["hccs"], reached: 80, drawn: 80, servers: 5, omitted: 0 });
    expect(body.nodes.filter((n) => n.kind === "server").map((n) => [n.id, n.hop])).toEqual([
      ["p0-s010", 0],
      ["p0-s009", 1],
      ["p0-s011", 1],
      ["p0-s008", 2],
      ["p0-s012", 2],
    ]);
    expect(body.links.every((link) => link.kind === "hccs")).toBe(true);
    // From one die, along the backup rail only: its NPU's other die.
    const die = topologyViewSchema.parse(await (await view(get("/x?level=server&id=p0-s010&hops=1&via=backup-rail&from=p0-s010%2Fd6"), context("big-pod"))).json());
    expect(die.neighbourhood).toMatchObject({ from: "p0-s010/d6", reached: 2, servers: 1 });
    // A die of another server is not this server's neighbourhood; hops expand a server view only.
    expect((await view(get("/x?level=server&id=p0-s010&hops=1&from=p0-s011%2Fd6"), context("big-pod"))).status).toBe(404);
    const refused = await view(get("/x?level=superpod&id=pod-0&hops=1"), context("big-pod"));
    expect(refused.status).toBe(400);
    expect((await view(get("/x?level=server&id=p0-s010&hops=4"), context("big-pod"))).status).toBe(400);
  });
});

describe("GET /api/v1/clusters/{id}/topology/search and /node", () => {
  it("finds a die by device IP and by inventory rank, then gives its details", async () => {
    const hits = await (await search(get("/x?q=192.168.50.9"), context("atlas-a3-demo"))).json();
    expect(hits).toEqual({
      total: 1,
      hits: [{ kind: "die", id: "sp1-node01/d3", label: "sp1-node01 · die 3", field: "deviceIp", value: "192.168.50.9", superPodId: "1", serverId: "sp1-node01" }],
    });
    const byRank = await (await search(get("/x?q=19&field=rank"), context("atlas-a3-demo"))).json();
    expect(byRank.hits.map((h: { id: string }) => h.id)).toEqual(["sp0-node01/d3"]);

    const details = await (await node(get("/x?kind=die&id=sp1-node01%2Fd3"), context("atlas-a3-demo"))).json();
    expect(details.node).toMatchObject({ deviceIp: "192.168.50.9", superDeviceId: 19, rank: 787 });
    expect(details.links[0]).toEqual({ kind: "backup-rail", peer: "sp1-node01/d2", peerKind: "die", peerLabel: "sp1-node01 · die 2", count: 1 });
    expect(details.faults).toBeNull();
    const missing = await node(get("/x?kind=die&id=sp1-node01%2Fd99"), context("atlas-a3-demo"));
    expect(missing.status).toBe(404);
  });
});
