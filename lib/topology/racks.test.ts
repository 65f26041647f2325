import { describe, expect, it } from "vitest";
import type { OpenFault } from "@/lib/faults/health";
import { addHealthCounts, emptyHealthCounts, healthOverlay, withHealth } from "./health-overlay";
import { largeA2Cluster, largeA3Cluster } from "./large-cluster";
import { nodeDetails } from "./details";
import { RACK_NPUS, rackIndex } from "./racks";
import { ROW_RACKS, rowIndex, rowOfRack } from "./rows";
import { searchTopology } from "./search";
import { indexOf } from "./test-support";
import { landingViewOf } from "./url";
import { buildTopologyView } from "./view";

/** A fault on one die (device `deviceId` of `serverId`), as db/queries/faults reads an open event. */
const dieFault = (serverId: string, deviceId: number, superPodId: string | null): OpenFault =>
  ({ serverId, superPodId, deviceId, npuIndex: null, planeKey: null, level: "SeparateNPU", kind: "npu-chip-fault" }) as unknown as OpenFault;

describe("racks", () => {
  // One super pod of 8,192 A3 servers (131,072 dies) beside a small one: past every threshold.
  const big = indexOf(largeA3Cluster(2, [8192, 4]));
  const pod = big.podById.get("pod-0")!;

  it("group a big pod's servers into racks of 64 NPUs, consecutive in inventory order, every server in exactly one", () => {
    const racks = rackIndex(big).byPod.get(pod)!;
    expect(racks).toHaveLength(1024);
    expect(racks.every((rack) => rack.npus === RACK_NPUS && rack.servers.length === 8)).toBe(true);
    expect(racks.flatMap((rack) => rack.servers)).toEqual(pod.servers);
    // The small pod is drawn server by server: no racks.
    expect(rackIndex(big).byPod.has(big.podById.get("pod-1")!)).toBe(false);
  });

  it("draw a big pod as rack aggregates whose counts and health distributions sum to the pod's; 3 faulty dies of 131,072 mark their racks and pod", () => {
    const faults = [dieFault("p0-s5000", 3, "pod-0"), dieFault("p0-s5001", 9, "pod-0"), dieFault("p0-s007", 0, "pod-0")];
    const overlay = healthOverlay(big, faults);
    const view = withHealth(buildTopologyView(big, "superpod", "pod-0"), overlay);
    const racks = view.nodes.filter((node) => node.kind === "rack");
    expect(racks).toHaveLength(1024);
    expect(racks.every((rack) => rack.aggregated && rack.drillable)).toBe(true);
    const sum = (key: "servers" | "npus" | "dies") => racks.reduce((n, rack) => n + rack.counts![key], 0);
    expect([sum("servers"), sum("npus"), sum("dies")]).toEqual([view.counts.servers, view.counts.npus, view.counts.dies]);
    expect(view.counts.dies).toBe(131_072);
    const total = racks.reduce((acc, rack) => addHealthCounts(acc, rack.healthCounts!), emptyHealthCounts());
    expect(total).toEqual(view.health);
    expect(view.health).toEqual({ healthy: 131_069, degraded: 0, faulty: 3, unknown: 0 });
    // p0-s5000 and p0-s5001 share rack 625; p0-s007 is in rack 0.
    const marked = racks.filter((rack) => rack.health === "faulty").map((rack) => [rack.id, rack.healthCounts!.faulty]);
    expect(marked).toEqual([
      ["pod-0/rack0", 1],
      ["pod-0/rack625", 2],
    ]);
    // And the pod, in the cluster view.
    const cluster = withHealth(buildTopologyView(big, "cluster", null), overlay);
    expect(cluster.nodes.find((node) => node.id === "pod-0")).toMatchObject({ health: "faulty", healthCounts: { faulty: 3, healthy: 131_069 } });
  });

  it("open a rack to its servers, with its path, and refuse a rack that does not exist", () => {
    const view = buildTopologyView(big, "rack", "pod-0/rack625");
    expect(view.nodes.filter((node) => node.kind === "server").map((node) => node.id)).toEqual(Array.from({ length: 8 }, (_, i) => `p0-s${5000 + i}`));
    expect(view.nodes.filter((node) => node.kind === "die")).toHaveLength(128);
    expect(view.path.map((crumb) => [crumb.level, crumb.id])).toEqual([
      ["cluster", null],
      ["superpod", "pod-0"],
      ["rack", "pod-0/rack625"],
    ]);
    // A server of a racked pod has its rack in its path.
    expect(buildTopologyView(big, "server", "p0-s5003").path.map((crumb) => crumb.id)).toEqual([null, "pod-0", "pod-0/rack625", "p0-s5003"]);
    expect(() => buildTopologyView(big, "rack", "pod-0/rack1024")).toThrow(/no rack/);
    // Search names a server's rack, so that landing on it opens the rack's view; a small pod's server has none.
    expect(searchTopology(big, "p0-s5003").hits[0]).toMatchObject({ id: "p0-s5003", rackId: "pod-0/rack625" });
    expect(landingViewOf({ kind: "server", id: "p0-s5003", superPodId: "pod-0", rackId: "pod-0/rack625" })).toEqual({ level: "rack", id: "pod-0/rack625", sel: "server:p0-s5003" });
    expect(searchTopology(big, "p1-s003").hits[0]!.rackId).toBeUndefined();
  });

  it("draw plain servers by rack past the cluster view's threshold, by row past a row's worth of racks, attached to the parameter plane instead of RoCE lines when the fabric has one", () => {
    const plain = indexOf(largeA2Cluster(1040));
    const bare = buildTopologyView(plain, "cluster", null);
    // 130 racks of 8 servers: more than a row holds, so the cluster view draws 2 rows (128 racks and 2).
    expect(rackIndex(plain).byPod.get(null)).toHaveLength(130);
    const rows = bare.nodes.filter((node) => node.kind === "row");
    expect(rows.map((row) => [row.id, row.counts!.servers])).toEqual([
      ["row0", 1024],
      ["row1", 16],
    ]);
    expect(rows.reduce((n, row) => n + row.counts!.dies, 0)).toBe(bare.counts.dies);
    // Without a fabric: the RoCE rails between the two rows, the one drawn link standing for 8.
    expect(bare.links).toEqual([{ source: "row0", target: "row1", kind: "roce", count: 8 }]);
    const withPlane = buildTopologyView(plain, "cluster", null, { parameter: { shape: null, servers: 1040, ports: 8320 } });
    expect(withPlane.links).toEqual([]);
    expect(withPlane.nodes.filter((node) => node.kind === "plane").map((node) => [node.id, node.planeKind])).toEqual([["param", "parameter"]]);
    // Asked again without the plane, the links counted once per index are the same.
    expect(buildTopologyView(plain, "cluster", null).links).toEqual(bare.links);
    const row = buildTopologyView(plain, "row", "row0");
    expect(row.nodes.filter((node) => node.kind === "rack")).toHaveLength(128);
    expect(row.links).toHaveLength(127);
    expect(row.links.every((link) => link.kind === "roce" && link.count === 8)).toBe(true);
    const rack = buildTopologyView(plain, "rack", "rack3");
    expect(rack.path.map((crumb) => crumb.id)).toEqual([null, "row0", "rack3"]);
    expect(rack.nodes.filter((node) => node.kind === "server")).toHaveLength(8);
    expect(rack.external.map((link) => [link.peer, link.peerKind, link.count])).toEqual([
      ["rack2", "rack", 8],
      ["rack4", "rack", 8],
    ]);
  });
});

describe("rows of racks", () => {
  // 2,056 plain A2 servers: 257 racks of 8, 3 rows (128, 128 and 1 racks), 16,448 dies.
  const plain = indexOf(largeA2Cluster(2056));
  const racks = rackIndex(plain).byPod.get(null)!;
  const { rows } = rowIndex(plain);

  it("group the plain servers' racks into rows of 128, consecutive in rack order, every rack in exactly one, counts the sums of their racks'", () => {
    expect(rows.map((row) => [row.id, row.racks.length])).toEqual([
      ["row0", ROW_RACKS],
      ["row1", ROW_RACKS],
      ["row2", 1],
    ]);
    expect(rows.flatMap((row) => row.racks)).toEqual(racks);
    for (const row of rows) {
      expect([row.servers, row.npus, row.dies]).toEqual([
        row.racks.reduce((n, rack) => n + rack.servers.length, 0),
        row.racks.reduce((n, rack) => n + rack.npus, 0),
        row.racks.reduce((n, rack) => n + rack.dies, 0),
      ]);
    }
    expect(racks.every((rack) => rowOfRack(plain, rack) === rows[Math.floor(rack.index / ROW_RACKS)])).toBe(true);
    // A pod's racks are in no row; neither are the racks of a cluster with one row's worth of them or fewer.
    const big = indexOf(largeA3Cluster(1, [200]));
    expect(rowIndex(big).rows).toEqual([]);
    expect(rackIndex(big).byPod.get(big.pods[0]!)!.every((rack) => rowOfRack(big, rack) === undefined)).toBe(true);
  });

  it("draw the cluster as row aggregates whose counts and health distributions sum to the cluster's; 3 faulty dies of 16,448 mark their row and racks", () => {
    const faults = [dieFault("a2-1100", 3, null), dieFault("a2-1101", 5, null), dieFault("a2-2000", 0, null)];
    const overlay = healthOverlay(plain, faults);
    const view = withHealth(buildTopologyView(plain, "cluster", null), overlay);
    const drawn = view.nodes.filter((node) => node.kind === "row");
    expect(drawn).toHaveLength(3);
    expect(drawn.every((row) => row.aggregated && row.drillable && row.superPodId === null)).toBe(true);
    // Nothing finer than a row is drawn: 3 cells stand for 16,448 dies.
    expect(view.nodes.filter((node) => node.kind !== "row")).toEqual([]);
    const sum = (key: "servers" | "npus" | "dies") => drawn.reduce((n, row) => n + row.counts![key], 0);
    expect([sum("servers"), sum("npus"), sum("dies")]).toEqual([view.counts.servers, view.counts.npus, view.counts.dies]);
    expect(drawn.reduce((acc, row) => addHealthCounts(acc, row.healthCounts!), emptyHealthCounts())).toEqual(view.health);
    expect(view.health).toEqual({ healthy: 16_445, degraded: 0, faulty: 3, unknown: 0 });
    // a2-1100, a2-1101 (rack 137) and a2-2000 (rack 250) are all in row 1: the one row marked, with the count.
    expect(drawn.map((row) => [row.id, row.health, row.healthCounts!.faulty])).toEqual([
      ["row0", "healthy", 0],
      ["row1", "faulty", 3],
      ["row2", "healthy", 0],
    ]);
    expect(drawn[1]!.healthCounts).toEqual({ healthy: 8189, degraded: 0, faulty: 3, unknown: 0 });
    // Inside the row, its racks sum to it, and the two racks with the faulty dies are marked.
    const row = withHealth(buildTopologyView(plain, "row", "row1"), overlay);
    const inRow = row.nodes.filter((node) => node.kind === "rack");
    expect(row.health).toEqual(drawn[1]!.healthCounts);
    expect(inRow.reduce((acc, rack) => addHealthCounts(acc, rack.healthCounts!), emptyHealthCounts())).toEqual(row.health);
    expect(inRow.filter((rack) => rack.health === "faulty").map((rack) => [rack.id, rack.healthCounts!.faulty])).toEqual([
      ["rack137", 2],
      ["rack250", 1],
    ]);
    // Without fault data, a row is unknown, never healthy.
    const unknown = withHealth(buildTopologyView(plain, "cluster", null), healthOverlay(plain, null));
    expect(unknown.nodes.map((node) => [node.health, node.healthCounts!.unknown])).toEqual(drawn.map((node) => ["unknown", node.counts!.dies]));
  });

  it("open a row to its racks with its path and the links leaving it; a rack, a server and a search land where they did, the row in their path", () => {
    const view = buildTopologyView(plain, "row", "row1");
    expect(view.nodes.map((node) => node.id)).toEqual(Array.from({ length: ROW_RACKS }, (_, i) => `rack${ROW_RACKS + i}`));
    expect(view.counts).toEqual({ superPods: 0, servers: 1024, npus: 8192, dies: 8192 });
    expect(view.path.map((crumb) => [crumb.level, crumb.id, crumb.label])).toEqual([
      ["cluster", null, plain.cluster.name],
      ["row", "row1", "Row 1 · a2-1024 – a2-2047"],
    ]);
    expect(view.external.map((link) => [link.kind, link.peer, link.peerKind, link.count])).toEqual([
      ["roce", "row0", "row", 8],
      ["roce", "row2", "row", 8],
    ]);
    expect(buildTopologyView(plain, "rack", "rack200").path.map((crumb) => crumb.id)).toEqual([null, "row1", "rack200"]);
    expect(buildTopologyView(plain, "server", "a2-1600").path.map((crumb) => [crumb.level, crumb.id])).toEqual([
      ["cluster", null],
      ["row", "row1"],
      ["rack", "rack200"],
      ["server", "a2-1600"],
    ]);
    expect(() => buildTopologyView(plain, "row", "row3")).toThrow(/no row "row3"/);
    expect(searchTopology(plain, "a2-1600").hits[0]).toMatchObject({ id: "a2-1600", rackId: "rack200" });
    expect(landingViewOf({ kind: "server", id: "a2-1600", superPodId: null, rackId: "rack200" })).toEqual({ level: "rack", id: "rack200", sel: "server:a2-1600" });
  });

  it("detail a row: its counts, its path, its links per peer row", () => {
    const details = nodeDetails(plain, "row", "row1");
    expect(details.node).toMatchObject({ id: "row1", kind: "row", label: "Row 1 · a2-1024 – a2-2047", counts: { servers: 1024, npus: 8192, dies: 8192 } });
    expect(details.path.map((crumb) => crumb.id)).toEqual([null, "row1"]);
    expect(details.links.map((link) => [link.kind, link.peer, link.peerKind, link.count])).toEqual([
      ["roce", "row0", "row", 8],
      ["roce", "row2", "row", 8],
    ]);
    expect(() => nodeDetails(plain, "row", "row9")).toThrow(/no node/);
  });
});
