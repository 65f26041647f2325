import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { healthOf, type OpenFault } from "@/lib/faults/health";
import { faultLevels } from "@/lib/faults/levels";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { addHealthCounts, emptyHealthCounts, healthOverlay, withHealth, worstOf } from "./health-overlay";
import { largeA3Cluster } from "./large-cluster";
import type { HealthCounts, TopologyNode } from "./model";
import { dieNode } from "./nodes";
import { indexOf } from "./test-support";
import { buildTopologyView, CLUSTER_SERVER_CELLS_MAX } from "./view";

const total = (c: HealthCounts) => c.healthy + c.degraded + c.faulty + c.unknown;

/** Open faults on random servers of a pods × servers cluster: a die's, an NPU's or a whole server's. */
const faultsOf = (pods: number, servers: number) =>
  fc.array(
    fc.record({
      pod: fc.nat(pods - 1),
      slot: fc.nat(servers - 1),
      npu: fc.option(fc.nat(7), { nil: null }),
      die: fc.option(fc.nat(1), { nil: null }),
      level: fc.constantFrom(...faultLevels),
    }),
    { maxLength: 12 },
  ).map((picks) =>
    picks.map(({ pod, slot, npu, die, level }): OpenFault => ({
      superPodId: `pod-${pod}`,
      serverId: `p${pod}-s${String(slot).padStart(3, "0")}`,
      npuIndex: npu,
      // A die fault names its device (npu × 2 + die); an NPU fault has none.
      deviceId: npu !== null && die !== null ? npu * 2 + die : null,
      planeKey: null,
      level,
    })),
  );

describe("the health overlay's aggregates", () => {
  it("are exact: every aggregate's parts sum to its dies, equal the per-die states, and sum up through the levels", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((pods) => fc.integer({ min: 1, max: 5 }).chain((servers) => fc.tuple(fc.constant(pods), fc.constant(servers), faultsOf(pods, servers)))),
        ([pods, servers, faults]) => {
          const index = indexOf(largeA3Cluster(pods, servers));
          const overlay = healthOverlay(index, faults);
          const clusterCounts = emptyHealthCounts();
          for (const pod of index.pods) {
            const podCounts = overlay.counts({ kind: "superpod", id: pod.id }, pod.dies);
            expect(total(podCounts)).toBe(pod.dies);
            const fromServers = emptyHealthCounts();
            for (const server of pod.servers) {
              const serverCounts = overlay.counts({ kind: "server", id: server.id }, server.dies.length);
              // The server's distribution is its dies' states, each by healthOf (the one rule of a die's health).
              const perDie = emptyHealthCounts();
              for (const die of server.dies) perDie[healthOf(dieNode(die, { x: 0, y: 0, width: 1, height: 1 }, ""), faults)]++;
              expect(serverCounts).toEqual(perDie);
              const fromNpus = emptyHealthCounts();
              for (const npu of server.npus) addHealthCounts(fromNpus, overlay.counts({ kind: "npu", id: npu.id }, npu.dies.length));
              expect(fromNpus).toEqual(serverCounts);
              addHealthCounts(fromServers, serverCounts);
            }
            expect(fromServers).toEqual(podCounts);
            // The pod's mark is the worst state present, the same as healthOf says for the pod.
            expect(worstOf(podCounts)).toBe(overlay.node({ kind: "superpod", id: pod.id, superPodId: pod.id } as TopologyNode));
            addHealthCounts(clusterCounts, podCounts);
          }
          expect(overlay.counts({ kind: "cluster", id: "" }, index.dieById.size)).toEqual(clusterCounts);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("without fault data, every die is unknown, never healthy", () => {
    const index = indexOf(demoA3Cluster());
    const view = withHealth(buildTopologyView(index, "cluster", null), healthOverlay(index, null));
    expect(view.health).toEqual({ healthy: 0, degraded: 0, faulty: 0, unknown: 1536 });
    expect(view.nodes.every((node) => node.health === "unknown")).toBe(true);
  });

  it("one faulty die of 131,072 still marks its super pod, with the count, in an aggregated cluster view", () => {
    // 64 super pods × 128 servers × 16 dies = 131,072 dies: the cluster view draws super pods as aggregates.
    const index = indexOf(largeA3Cluster(64, 128));
    expect(index.servers.length).toBeGreaterThan(CLUSTER_SERVER_CELLS_MAX);
    const faults: OpenFault[] = [{ superPodId: "pod-37", serverId: "p37-s100", npuIndex: 3, deviceId: 7, planeKey: null, level: "SeparateNPU" }];
    const view = withHealth(buildTopologyView(index, "cluster", null), healthOverlay(index, faults));
    expect(view.nodes.every((node) => node.kind === "superpod" && node.aggregated)).toBe(true);
    const pod = view.nodes.find((node) => node.id === "pod-37")!;
    expect(pod.health).toBe("faulty");
    expect(pod.healthCounts).toEqual({ healthy: 2047, degraded: 0, faulty: 1, unknown: 0 });
    expect(view.nodes.filter((node) => node.health !== "healthy").map((node) => node.id)).toEqual(["pod-37"]);
    expect(view.health).toEqual({ healthy: 131_071, degraded: 0, faulty: 1, unknown: 0 });
  });
});
