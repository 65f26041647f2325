import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAffinity } from "./check";
import { parseCpuList } from "./cpu-list";
import * as shapes from "./fixtures/real-shapes";
import { readLayout, type CpuLayout } from "./layout";
import { planAffinity } from "./plan";

const defaultServer = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoDefault).layout;
const swappedServer = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoNotDefault).layout;

describe("affinity planner", () => {
  it("proposes mode:1 alone where the default mapping holds", () => {
    const plan = planAffinity({ layout: defaultServer, npus: [0, 1, 2, 3, 4, 5, 6, 7] });
    expect(plan.value).toBe("mode:1");
    expect(plan.usesDefault).toBe(true);
    expect(plan.env).toBe("export CPU_AFFINITY_CONF=mode:1");
    expect(plan.findings).toEqual([]);
  });

  it("proposes ranges on each NPU's own node where NPU0 sits on node 6, splitting shared nodes", () => {
    const plan = planAffinity({ layout: swappedServer, npus: [0, 1, 2, 3, 4, 5, 6, 7], reserve: 2 });
    expect(plan.value).toBe(
      "mode:1,npu0:146-156,npu1:157-167,npu2:98-108,npu3:109-119,npu4:2-12,npu5:13-23,npu6:50-60,npu7:61-71",
    );
    expect(plan.reserved).toEqual([
      { node: 0, cpus: "0-1" }, { node: 2, cpus: "48-49" }, { node: 4, cpus: "96-97" }, { node: 6, cpus: "144-145" },
    ]);
    expect(plan.findings).toEqual([]);
    expect(plan.explanations[0]?.zh).toContain("默认划分");
  });

  it("renumbers through ASCEND_RT_VISIBLE_DEVICES when the job uses some NPUs", () => {
    const plan = planAffinity({ layout: defaultServer, npus: [4, 5], mode: 2 });
    expect(plan.visibleDevices).toBe("4,5");
    expect(plan.value).toBe("mode:2,npu0:96-119,npu1:120-143");
    expect(plan.env).toBe("export ASCEND_RT_VISIBLE_DEVICES=4,5\nexport CPU_AFFINITY_CONF=mode:2,npu0:96-119,npu1:120-143");
    expect(plan.findings).toEqual([]);
  });

  it("says when a node has too few cores or the topo is missing", () => {
    expect(() => planAffinity({ layout: swappedServer, npus: [0, 1], reserve: 23 })).toThrow(/node 6 has 1 core/);
    expect(() => planAffinity({ layout: readLayout(shapes.kunpeng920Lscpu).layout, npus: [0] })).toThrow(/npu-smi info -t topo/);
    expect(() => planAffinity({ layout: defaultServer, npus: [0, 1], processes: 3 })).toThrow(/processes/);
  });

  it("gives each NPU one share of every run on nodes with hyper-thread siblings", () => {
    const layout = readLayout(shapes.hygonMixedLocaleLscpu, "      NPU0  NPU1  CPU Affinity\nNPU0  X  PIX  0-31,64-95\nNPU1  PIX  X  0-31,64-95\n").layout;
    const plan = planAffinity({ layout, npus: [0, 1] });
    expect(plan.value).toBe("mode:1,npu0:0-15,npu0:64-79,npu1:16-31,npu1:80-95");
    expect(plan.findings.map((f) => f.code)).toEqual(["CA013", "CA013"]);
  });
});

/** Random servers: NUMA nodes of consecutive (or split, hyper-threaded) CPUs, NPUs placed on random nodes. */
const servers = fc
  .record({
    sizes: fc.array(fc.integer({ min: 4, max: 40 }), { minLength: 1, maxLength: 6 }),
    split: fc.boolean(),
    npuNodes: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
  })
  .map(({ sizes, split, npuNodes }): CpuLayout => {
    const total = sizes.reduce((a, b) => a + b, 0);
    let next = 0;
    const numaNodes = sizes.map((size, id) => {
      const cpus = Array.from({ length: size }, (_, i) => next + i);
      next += size;
      // Split layout: each node also owns the same number of siblings above `total`.
      return { id, cpus: split ? [...cpus, ...cpus.map((cpu) => cpu + total)] : cpus };
    });
    const npus = npuNodes.map((pick, id) => {
      const node = numaNodes[pick % numaNodes.length] ?? { id: 0, cpus: [] };
      return { id, cpus: node.cpus, numaNode: node.id, nodes: [node.id] };
    });
    return { numaNodes, onlineCpus: numaNodes.flatMap((node) => node.cpus).sort((a, b) => a - b), npus };
  });

describe("affinity planner properties", () => {
  it("never overlaps, never crosses nodes, stays on each NPU's node and keeps the reserve free", () => {
    fc.assert(
      fc.property(servers, fc.integer({ min: 0, max: 4 }), fc.boolean(), fc.nat(), (layout, reserve, mode2, subsetSeed) => {
        const ids = layout.npus.map((npu) => npu.id);
        const npus = ids.filter((id, i) => i === 0 || ((subsetSeed >> i) & 1) === 1);
        let plan;
        try {
          plan = planAffinity({ layout, npus, reserve, mode: mode2 ? 2 : 1 });
        } catch (error) {
          // Only a node too small for its NPUs after the reserve may refuse.
          expect((error as { code?: string }).code).toBe("not_enough_cores");
          return;
        }
        const nodeOf = new Map(layout.numaNodes.flatMap((node) => node.cpus.map((cpu) => [cpu, node.id] as const)));
        const taken = new Set<number>();
        for (const range of plan.ranges) {
          const cpus = parseCpuList(range.cpus) ?? [];
          expect(cpus.length).toBeGreaterThan(0);
          for (const cpu of cpus) {
            expect(taken.has(cpu)).toBe(false);
            taken.add(cpu);
            expect(nodeOf.get(cpu)).toBe(range.numaNode);
          }
          expect(layout.npus.find((npu) => npu.id === range.physicalNpu)?.numaNode).toBe(range.numaNode);
        }
        for (const node of new Set(plan.ranges.map((range) => range.numaNode))) {
          const free = (layout.numaNodes.find((n) => n.id === node)?.cpus ?? []).filter((cpu) => !taken.has(cpu));
          expect(free.length).toBeGreaterThanOrEqual(reserve);
        }
        // The checker finds nothing wrong with the proposal (several ranges per NPU are only noted).
        expect(plan.findings.filter((f) => f.severity !== "info")).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a real host whose NPUs alternate between nodes (guevara/read-it-later#11547)", () => {
  it("plans two NPUs per node without overlap, and flags mode:1 alone", () => {
    const layout = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoInterleavedFlushHeader).layout;
    const plan = planAffinity({ layout, npus: [0, 1, 2, 3, 4, 5, 6, 7] });
    expect(plan.value).toBe("mode:1,npu0:144-155,npu1:0-11,npu2:156-167,npu3:12-23,npu4:96-107,npu5:48-59,npu6:108-119,npu7:60-71");
    expect(plan.findings.filter((f) => f.severity !== "info")).toEqual([]);
    const codes = checkAffinity({ value: "mode:1", layout }).findings.map((f) => f.code);
    // Default blocks: npu<i> → node i. Only NPU4 (on node 4) lands home; the other seven bind to a remote node.
    expect(codes.filter((code) => code === "CA012")).toHaveLength(7);
  });
});
