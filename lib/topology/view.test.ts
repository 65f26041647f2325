import { describe, expect, it } from "vitest";
import { deriveFabric } from "@/lib/fabric/derive";
import { findProfile } from "@/lib/fabric/profiles";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { generateA5Table, writeRankTable } from "@/lib/rank-table";
import { inventoryFromRankTable } from "./import";
import { largeA3Cluster } from "./large-cluster";
import { contains, gridCells, overlaps } from "./layout";
import type { TopologyView } from "./model";
import { indexOf } from "./test-support";
import { buildTopologyView, CLUSTER_SERVER_CELLS_MAX, TopologyNotFoundError } from "./view";
import { POD_DIES_MAX } from "./view-pod";

const demo = indexOf(demoA3Cluster());
const a3Fabric = deriveFabric(findProfile("atlas-900-a3-superpod")!, demoA3Cluster().servers.map((s) => ({ serverId: s.serverId, superPodId: s.superPodId, npuIndexes: [] })));
/** A pod's bus planes aggregated as db/queries/fabric.ts podBusPlanes does in SQL: per plane its switches, servers and uplink ports. */
const a3PodPlanes = (podId: string) =>
  a3Fabric.planes
    .filter((p) => p.kind === "bus" && p.superPodId === podId)
    .map((p) => {
      const uplinks = a3Fabric.links.filter((l) => l.kind === "uplink" && l.planeKey === p.key);
      return {
        key: p.key,
        index: p.index,
        switches: a3Fabric.switches.filter((s) => s.kind === "bus-switch" && s.planeKey === p.key).length,
        servers: new Set(uplinks.map((l) => l.serverId)).size,
        uplinks: uplinks.reduce((n, l) => n + l.ports, 0),
      };
    });
const a2 = indexOf(demoA2Cluster());
/** One Atlas 950 SuperPoD of `racks` racks × 64 NPUs, imported from its generated "2.0" table. */
const a5Cluster = (racks: number) => ({ slug: "a5", name: "a5", description: "", ...inventoryFromRankTable(writeRankTable(generateA5Table({ racks }))).inventory! });
const large = indexOf(largeA3Cluster(32, 32));

/** Siblings never overlap, children lie inside their parent, and everything lies inside the view's bounds. */
function expectNoOverlaps(view: TopologyView): void {
  const byId = new Map(view.nodes.map((node) => [`${node.kind}:${node.id}`, node]));
  const kindOfParent = { superpod: null, row: null, rack: null, server: "superpod", npu: "server", die: "npu", plane: null, switch: null } as const;
  const siblings = new Map<string, TopologyView["nodes"]>();
  for (const node of view.nodes) {
    const key = `${node.kind}|${node.parent ?? ""}`;
    siblings.set(key, [...(siblings.get(key) ?? []), node]);
    expect(node.x).toBeGreaterThanOrEqual(0);
    expect(node.y).toBeGreaterThanOrEqual(0);
    expect(node.x + node.width).toBeLessThanOrEqual(view.bounds.width + 0.01);
    expect(node.y + node.height).toBeLessThanOrEqual(view.bounds.height + 0.01);
    const parentKind = kindOfParent[node.kind];
    const parent = node.parent && parentKind ? byId.get(`${parentKind}:${node.parent}`) : undefined;
    if (parent) expect(contains(parent, node), `${node.id} inside ${parent.id}`).toBe(true);
  }
  for (const group of siblings.values()) {
    // Sorted sweep: only boxes whose x ranges meet are compared.
    const sorted = [...group].sort((a, b) => a.x - b.x);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && sorted[j]!.x < sorted[i]!.x + sorted[i]!.width; j++) {
        expect(overlaps(sorted[i]!, sorted[j]!), `${sorted[i]!.id} and ${sorted[j]!.id} overlap`).toBe(false);
      }
    }
  }
  // Different kinds never overlap unless one contains the other (a die is never half over another server).
  const tops = view.nodes.filter((node) => node.parent === null || !byId.has(`${kindOfParent[node.kind]}:${node.parent}`));
  for (let i = 0; i < tops.length; i++) {
    for (let j = i + 1; j < tops.length; j++) expect(overlaps(tops[i]!, tops[j]!)).toBe(false);
  }
}

describe("layout", () => {
  it("lays grids out serpentine so consecutive cells are neighbours", () => {
    const cells = gridCells(6, { width: 10, height: 10 }, 5, 3, { x: 0, y: 0 }, true);
    expect(cells.map((c) => [c.x, c.y])).toEqual([
      [0, 0],
      [15, 0],
      [30, 0],
      [30, 15],
      [15, 15],
      [0, 15],
    ]);
  });
});

describe("topology views", () => {
  it("are deterministic: the same inventory always draws the same way", () => {
    for (const [level, id] of [
      ["cluster", null],
      ["superpod", "1"],
      ["server", "sp1-node07"],
    ] as const) {
      const again = buildTopologyView(indexOf(demoA3Cluster()), level, id);
      expect(again).toEqual(buildTopologyView(demo, level, id));
    }
  });

  it("draw the cluster as super pods of servers with the RoCE plane between them", () => {
    const view = buildTopologyView(demo, "cluster", null);
    expect(view.nodes.filter((n) => n.kind === "superpod").map((n) => [n.id, n.counts])).toEqual([
      ["0", { servers: 48, npus: 384, dies: 768 }],
      ["1", { servers: 48, npus: 384, dies: 768 }],
    ]);
    expect(view.nodes.filter((n) => n.kind === "server")).toHaveLength(96);
    expect(view.links).toEqual([{ source: "0", target: "1", kind: "roce", count: 768 }]);
    expect(view.counts).toEqual({ superPods: 2, servers: 96, npus: 768, dies: 1536 });
    expect(view.nodes.every((n) => n.health === "unknown")).toBe(true);
    expectNoOverlaps(view);
  });

  it("draw a super pod as its servers, NPUs and dies with the HCCS ring between servers", () => {
    const view = buildTopologyView(demo, "superpod", "0");
    expect(view.nodes.filter((n) => n.kind === "server")).toHaveLength(48);
    expect(view.nodes.filter((n) => n.kind === "npu")).toHaveLength(384);
    expect(view.nodes.filter((n) => n.kind === "die")).toHaveLength(768);
    expect(view.links).toHaveLength(48);
    expect(view.links.every((l) => l.kind === "hccs" && l.count === 16)).toBe(true);
    expect(view.external).toEqual([{ kind: "roce", peer: "1", peerKind: "superpod", count: 768 }]);
    expect(view.path.map((c) => c.label)).toEqual(["Atlas 900 A3 SuperPoD (demo)", "Super pod 0"]);
    expectNoOverlaps(view);
  });

  it("draw a super pod of a cluster with a bus fabric as its servers above one bar per bus plane, without the ring", () => {
    const planes = a3PodPlanes("0");
    const view = buildTopologyView(demo, "superpod", "0", { busPlanes: planes });
    const drawn = view.nodes.filter((n) => n.kind === "plane");
    // 7 planes of 8 bus switches; each reaches all 48 servers through 8 uplinks per server (384 per plane, 2,688 in all).
    expect(drawn.map((n) => [n.id, n.planeIndex, n.switches, n.counts?.servers, n.uplinks])).toEqual(
      Array.from({ length: 7 }, (_, p) => [`pod:0/ub:${p}`, p, 8, 48, 384]),
    );
    expect(drawn.reduce((n, p) => n + (p.uplinks ?? 0), 0)).toBe(a3Fabric.links.filter((l) => l.kind === "uplink" && l.planeKey.startsWith("pod:0/")).length);
    expect(drawn.every((n) => n.superPodId === "0" && !n.drillable && n.health === "unknown")).toBe(true);
    // The servers, NPUs and dies are unchanged; the HCCS ring between servers is gone, the RoCE plane still external.
    expect(view.nodes.filter((n) => n.kind === "server")).toHaveLength(48);
    expect(view.nodes.filter((n) => n.kind === "die")).toHaveLength(768);
    expect(view.links.filter((l) => l.kind === "hccs")).toEqual([]);
    expect(view.external).toEqual([{ kind: "roce", peer: "1", peerKind: "superpod", count: 768 }]);
    // The bars lie below the servers, as wide as their grid, inside the bounds.
    const serversBottom = Math.max(...view.nodes.filter((n) => n.kind === "server").map((n) => n.y + n.height));
    expect(drawn.every((n) => n.y > serversBottom && n.x === 0 && n.width === view.bounds.width)).toBe(true);
    expectNoOverlaps(view);
  });

  it("draw a server above its fabric: node chip k over bus plane k, then the parameter plane (shape unknown)", () => {
    const nodeChips = Array.from({ length: 7 }, (_, k) => ({ key: `server:sp0-node00/chip:${k}`, chipId: k, planeKey: `pod:0/ub:${k}`, ports: 48, uplinks: 8 }));
    const parameter = { shape: null, servers: 96, ports: 768 };
    const view = buildTopologyView(demo, "server", "sp0-node00", { nodeChips, busPlanes: a3PodPlanes("0"), parameter });
    const chips = view.nodes.filter((n) => n.kind === "switch");
    const planes = view.nodes.filter((n) => n.kind === "plane" && n.planeKind === "bus");
    expect(chips.map((n) => [n.id, n.switchIndex, n.planeKey, n.uplinks])).toEqual(nodeChips.map((c) => [c.key, c.chipId, c.planeKey, 8]));
    expect(planes.map((n) => n.id)).toEqual(nodeChips.map((c) => c.planeKey));
    // Each chip stands right above its plane; the parameter plane spans the server, below everything, dashed (unknown).
    chips.forEach((chip, k) => expect([planes[k]!.x, planes[k]!.width, planes[k]!.y > chip.y + chip.height]).toEqual([chip.x, chip.width, true]));
    const server = view.nodes.find((n) => n.kind === "server")!;
    expect(chips.every((c) => c.y > server.y + server.height)).toBe(true);
    const param = view.nodes.filter((n) => n.planeKind === "parameter");
    expect(param).toMatchObject([{ id: "param", shape: null, ports: 8, width: server.width }]);
    expect(param[0]!.y).toBeGreaterThan(Math.max(...planes.map((p) => p.y + p.height)));
    expectNoOverlaps(view);
    // Without a fabric the server is drawn as before.
    expect(buildTopologyView(demo, "server", "sp0-node00").nodes.some((n) => n.kind === "switch" || n.kind === "plane")).toBe(false);
  });

  it("draw the parameter plane below the super pods instead of RoCE lines between them: one bar when its shape is unknown, leaf/spine when known", () => {
    const unknown = buildTopologyView(demo, "cluster", null, { parameter: { shape: null, servers: 96, ports: 768 } });
    expect(unknown.links.filter((l) => l.kind === "roce")).toEqual([]);
    expect(unknown.nodes.filter((n) => n.kind === "plane")).toMatchObject([{ id: "param", planeKind: "parameter", shape: null, ports: 768, counts: { servers: 96 } }]);
    expectNoOverlaps(unknown);
    const known = buildTopologyView(demo, "cluster", null, { parameter: { shape: "leaf-spine", servers: 96, ports: 768 } });
    expect(known.nodes.filter((n) => n.kind === "plane").map((n) => [n.id, n.superPodId, n.ports])).toEqual([
      ["param/leaf:0", "0", 384],
      ["param/leaf:1", "1", 384],
      ["param/spine", null, 768],
    ]);
    const [leaf0, , spine] = known.nodes.filter((n) => n.kind === "plane");
    expect(spine!.y).toBeGreaterThan(leaf0!.y + leaf0!.height);
    expectNoOverlaps(known);
    // Without a stored parameter plane the pods keep their RoCE line.
    expect(buildTopologyView(demo, "cluster", null).links.filter((l) => l.kind === "roce").length).toBeGreaterThan(0);
  });

  it("draw a server's 8 NPUs with two dies each side by side and the 8 backup-rail links", () => {
    const view = buildTopologyView(demo, "server", "sp0-node00");
    const dies = view.nodes.filter((n) => n.kind === "die");
    expect(dies).toHaveLength(16);
    const rails = view.links.filter((l) => l.kind === "backup-rail");
    expect(rails).toHaveLength(8);
    for (const rail of rails) {
      const a = dies.find((d) => d.id === rail.source)!;
      const b = dies.find((d) => d.id === rail.target)!;
      expect(a.parent).toBe(b.parent);
      expect(a.y).toBe(b.y);
      expect(Math.abs(a.deviceId! - b.deviceId!)).toBe(1);
      expect(Math.min(a.deviceId!, b.deviceId!) % 2).toBe(0);
    }
    expect(dies[1]).toMatchObject({
      id: "sp0-node00/d1",
      deviceIp: "192.168.1.7",
      devicePort: 16666,
      backupDeviceIp: "192.168.1.6",
      backupDevicePort: 16667,
      hostPort: 16666,
      superDeviceId: 1,
      rank: 1,
    });
    expect(view.external).toEqual([
      { kind: "hccs", peer: "sp0-node01", peerKind: "server", count: 16 },
      { kind: "hccs", peer: "sp0-node47", peerKind: "server", count: 16 },
      { kind: "roce", peer: "sp1-node00", peerKind: "server", count: 16 },
    ]);
    expectNoOverlaps(view);
  });

  it("draw an AI Server mode cluster as servers, each with its HCCS mesh", () => {
    const cluster = buildTopologyView(a2, "cluster", null);
    expect(cluster.nodes.map((n) => n.kind)).toEqual(["server", "server", "server", "server"]);
    expect(cluster.links.every((l) => l.kind === "roce")).toBe(true);
    expectNoOverlaps(cluster);
    const server = buildTopologyView(a2, "server", "a2-node0");
    expect(server.nodes.filter((n) => n.kind === "die")).toHaveLength(8);
    expect(server.links.filter((l) => l.kind === "hccs")).toHaveLength(28);
    expectNoOverlaps(server);
  });

  it("stay free of overlaps on a 16,384-die cluster", () => {
    const cluster = buildTopologyView(large, "cluster", null);
    expect(cluster.counts.dies).toBe(16_384);
    expect(cluster.nodes).toHaveLength(32 + 1024);
    expect(cluster.links).toHaveLength(31);
    expectNoOverlaps(cluster);
    const pod = buildTopologyView(large, "superpod", "pod-17");
    expect(pod.nodes.filter((n) => n.kind === "die")).toHaveLength(512);
    expectNoOverlaps(pod);
  });

  it("draw aggregates past their thresholds: super pods as one cell each in a cluster of many servers, servers as one cell each in a big pod", () => {
    // 64 super pods × 17 servers: more servers than the cluster view draws one by one.
    const superCluster = indexOf(largeA3Cluster(64, 17));
    expect(superCluster.servers.length).toBeGreaterThan(CLUSTER_SERVER_CELLS_MAX);
    const cluster = buildTopologyView(superCluster, "cluster", null);
    expect(cluster.nodes).toHaveLength(64);
    expect(cluster.nodes.every((n) => n.kind === "superpod" && n.aggregated && n.drillable)).toBe(true);
    expect(cluster.nodes[0]!.counts).toEqual({ servers: 17, npus: 136, dies: 272 });
    // The RoCE plane between neighbouring pods, one drawn link per pair, standing for every rail between them.
    expect(cluster.links).toHaveLength(63);
    expect(cluster.links.every((link) => link.kind === "roce" && link.count === 17 * 16)).toBe(true);
    expectNoOverlaps(cluster);
    // A pod of 20 Atlas 950 racks ("2.0": a server is a rack of 64 NPUs) is more dies than a pod view draws: its
    // servers are aggregates, not racks again.
    const a5 = indexOf(a5Cluster(20));
    expect(a5.pods[0]!.dies).toBeGreaterThan(POD_DIES_MAX);
    const pod = buildTopologyView(a5, "superpod", "superpod0");
    expect(pod.nodes).toHaveLength(20);
    expect(pod.nodes.every((n) => n.kind === "server" && n.aggregated && n.drillable && n.counts?.dies === 64)).toBe(true);
    expect(pod.links.filter((link) => link.kind === "net-layer-1")).toHaveLength(19);
    expectNoOverlaps(pod);
    // Below the thresholds nothing changes: the 16,384-die cluster is still drawn server by server.
    expect(buildTopologyView(large, "cluster", null).nodes.some((n) => n.aggregated)).toBe(false);
    expect(buildTopologyView(large, "superpod", "pod-0").nodes.some((n) => n.aggregated)).toBe(false);
  });

  it("refuse ids the inventory does not have", () => {
    expect(() => buildTopologyView(demo, "superpod", "9")).toThrow(TopologyNotFoundError);
    expect(() => buildTopologyView(demo, "server", "nope")).toThrow(TopologyNotFoundError);
    expect(() => buildTopologyView(a2, "superpod", "0")).toThrow(TopologyNotFoundError);
  });
});
