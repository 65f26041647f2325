import { describe, expect, it } from "vitest";
import type { OpenFault } from "@/lib/faults/health";
import { addHealthCounts, emptyHealthCounts, healthOverlay, withHealth } from "./health-overlay";
import { largeA2Cluster, largeA3Cluster } from "./large-cluster";
import { RACK_NPUS, rackIndex } from "./racks";
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

  it("draw plain servers by rack past the cluster view's threshold, attached to the parameter plane instead of RoCE lines when the fabric has one", () => {
    const plain = indexOf(largeA2Cluster(1040));
    const bare = buildTopologyView(plain, "cluster", null);
    const racks = bare.nodes.filter((node) => node.kind === "rack");
    expect(racks).toHaveLength(130);
    expect(racks.reduce((n, rack) => n + rack.counts!.dies, 0)).toBe(bare.counts.dies);
    // Without a fabric: the RoCE rails between neighbouring racks, each drawn link standing for 8.
    expect(bare.links).toHaveLength(129);
    expect(bare.links.every((link) => link.kind === "roce" && link.count === 8)).toBe(true);
    const withPlane = buildTopologyView(plain, "cluster", null, { parameter: { shape: null, servers: 1040, ports: 8320 } });
    expect(withPlane.links).toEqual([]);
    expect(withPlane.nodes.filter((node) => node.kind === "plane").map((node) => [node.id, node.planeKind])).toEqual([["param", "parameter"]]);
    const rack = buildTopologyView(plain, "rack", "rack3");
    expect(rack.path.map((crumb) => crumb.id)).toEqual([null, "rack3"]);
    expect(rack.nodes.filter((node) => node.kind === "server")).toHaveLength(8);
    expect(rack.external.map((link) => [link.peer, link.peerKind, link.count])).toEqual([
      ["rack2", "rack", 8],
      ["rack4", "rack", 8],
    ]);
  });
});
