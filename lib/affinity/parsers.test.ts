import { describe, expect, it } from "vitest";
import { formatCpuList, parseCpuList } from "./cpu-list";
import * as shapes from "./fixtures/real-shapes";
import { readLayout } from "./layout";
import { parseLscpu } from "./lscpu";
import { parseNpuTopo } from "./npu-topo";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("CPU lists", () => {
  it("read ranges and singles and print them back shortest", () => {
    expect(parseCpuList("0-2,5,7-8")).toEqual([0, 1, 2, 5, 7, 8]);
    expect(formatCpuList([8, 7, 0, 1, 2, 5])).toBe("0-2,5,7-8");
    expect(parseCpuList("")).toEqual([]);
    expect(parseCpuList("3-1")).toBeNull();
    expect(parseCpuList("0-x")).toBeNull();
  });
});

describe("lscpu", () => {
  it("reads a Kunpeng 920 Ascend host: 192 CPUs, 4 sockets, 8 NUMA nodes of 24", () => {
    const report = parseLscpu(shapes.kunpeng920Lscpu);
    expect(report).toMatchObject({ cpuCount: 192, sockets: 4, coresPerSocket: 48, threadsPerCore: 1, numaNodeCount: 8 });
    expect(report.modelName).toBe("Kunpeng-920");
    expect(report.onlineCpus).toEqual(range(0, 191));
    expect(report.numaNodes.map((node) => [node.id, node.cpus[0], node.cpus.at(-1)])).toEqual(
      range(0, 7).map((id) => [id, id * 24, id * 24 + 23]),
    );
    // The wrapped Flags line is part of Flags, not an unknown line.
    expect(report.unknownLines).toEqual([]);
    expect(report.fields.find((field) => field.key === "L3 cache")?.value).toBe("192 MiB (8 instances)");
  });

  it("reads the Chinese locale with full-width colons and keeps the shell prompt as an unknown line", () => {
    const report = parseLscpu(shapes.kunpengChineseLscpu);
    expect(report).toMatchObject({ cpuCount: 256, sockets: 4, coresPerSocket: 64, numaNodeCount: 8, architecture: "aarch64" });
    expect(report.modelName).toBe("Kunpeng-920");
    expect(report.numaNodes).toHaveLength(8);
    expect(report.numaNodes[7]?.cpus).toEqual(range(224, 255));
    expect(report.unknownLines).toEqual([{ line: 1, text: "[root@localhost ~]# lscpu" }]);
  });

  it("reads mixed English/Chinese keys and split node lists (hyper-threads)", () => {
    const report = parseLscpu(shapes.hygonMixedLocaleLscpu);
    expect(report.sockets).toBe(2);
    expect(report.numaNodes[0]?.cpus).toEqual([...range(0, 31), ...range(64, 95)]);
    expect(report.modelName).toBe("Hygon C86 7280 32-core Processor");
  });

  it("reads the indented layout and keeps memory-only nodes without CPUs", () => {
    const report = parseLscpu(shapes.graceEmptyNodesLscpu);
    expect(report.numaNodeCount).toBe(9);
    expect(report.numaNodes.map((node) => node.cpus.length)).toEqual([72, 0, 0]);
    expect(readLayout(shapes.graceEmptyNodesLscpu).layout.numaNodes.map((node) => node.id)).toEqual([0]);
  });

  it("reads the lscpu -e=CPU,NODE table", () => {
    expect(parseLscpu(shapes.cpuNodeTable).numaNodes).toEqual([
      { id: 0, cpus: [0, 1, 2, 3] },
      { id: 1, cpus: [4, 5, 6, 7] },
    ]);
  });

  it("reads the util-linux 2.38 Kunpeng shape (clusters, `Socket(s): -`) and reports a paste cut short after node 6", () => {
    const report = parseLscpu(shapes.kunpengClusterLscpuTruncated);
    expect(report).toMatchObject({ cpuCount: 192, threadsPerCore: 1, numaNodeCount: 8, modelName: "Kunpeng-920" });
    // `Socket(s): -` is no number: left unset rather than read as 0.
    expect(report.sockets).toBeUndefined();
    expect(report.numaNodes.map((node) => node.id)).toEqual(range(0, 6));
    expect(report.unknownLines).toEqual([]);
    expect(report.problems.map((problem) => problem.message.en)).toEqual([
      "NUMA node(s) says 8 but only 7 node line(s) were found: was the paste cut short?",
      "online CPUs 168-191 are in no NUMA node line: ranges on them cannot be checked against a node",
    ]);
    expect(report.problems[0]?.line).toBe(23);
  });

  it("reads a 2-socket Kunpeng 920 5251K: 96 CPUs on 4 nodes, nothing skipped", () => {
    const report = parseLscpu(shapes.kunpeng5251kLscpu);
    expect(report).toMatchObject({ cpuCount: 96, sockets: 2, coresPerSocket: 48, numaNodeCount: 4 });
    expect(report.numaNodes.map((node) => [node.id, node.cpus[0], node.cpus.at(-1)])).toEqual(range(0, 3).map((id) => [id, id * 24, id * 24 + 23]));
    expect(report.unknownLines).toEqual([]);
    expect(report.problems).toEqual([]);
  });

  it("reports a malformed node list with its line and never throws on junk", () => {
    const report = parseLscpu("NUMA node0 CPU(s):  0-23,abc\n\u0000\u0001 garbage ::: \n");
    expect(report.problems[0]).toMatchObject({ line: 1 });
    expect(report.problems[0]?.message.zh).toContain("不是 CPU 列表");
    expect(() => readLayout("nothing useful")).toThrow(/NUMA node/);
  });
});

describe("npu-smi info -t topo", () => {
  it("reads the A2 table whose NPU0 is on 144-167, with the legend and the prompt kept apart", () => {
    const report = parseNpuTopo(shapes.a2TopoNotDefault);
    expect(report.hasAffinityColumn).toBe(true);
    expect(report.columns).toEqual(range(0, 7).map((i) => `NPU${i}`));
    expect(report.npus.map((npu) => [npu.id, formatCpuList(npu.affinity ?? [])])).toEqual([
      [0, "144-167"], [1, "144-167"], [2, "96-119"], [3, "96-119"], [4, "0-23"], [5, "0-23"], [6, "48-71"], [7, "48-71"],
    ]);
    expect(report.npus[0]?.links).toMatchObject({ NPU0: "X", NPU1: "HCCS" });
    expect(report.legend.map((entry) => entry.code)).toEqual(["X", "SYS", "PHB", "PIX", "PXB", "HCCS", "NA"]);
    expect(report.unknownLines).toEqual([{ line: 1, text: "(valle) root@valle:~/src# npu-smi info -t topo" }]);
  });

  it("reads a header that starts at column 0 like the rows, with NPUs alternating between nodes", () => {
    const report = parseNpuTopo(shapes.a2TopoInterleavedFlushHeader);
    expect(report.columns).toEqual(range(0, 7).map((i) => `NPU${i}`));
    expect(report.npus.map((npu) => npu.links.NPU1)).toEqual(["HCCS", "X", "HCCS", "HCCS", "HCCS", "HCCS", "HCCS", "HCCS"]);
    expect(report.legend.map((entry) => entry.code)).toEqual(["X", "SYS", "PHB", "PIX", "PXB", "HCCS"]);
    expect(report.unknownLines).toEqual([{ line: 1, text: "$ npu-smi info -t topo" }]);
    const layout = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoInterleavedFlushHeader).layout;
    expect(layout.npus.map((npu) => npu.numaNode)).toEqual([6, 0, 6, 0, 4, 2, 4, 2]);
  });

  it("reads PCIe cards with narrow columns", () => {
    const report = parseNpuTopo(shapes.pcieTopo);
    expect(report.npus.map((npu) => npu.links.NPU2)).toEqual(["SYS", "PXB", "X", "PXB"]);
    expect(report.npus[3]?.affinity).toEqual(range(0, 23));
  });

  it("reads the A3 shape without a CPU Affinity column (UB links, NIC column)", () => {
    const report = parseNpuTopo(shapes.a3TopoWithoutAffinity);
    expect(report.hasAffinityColumn).toBe(false);
    expect(report.npus.map((npu) => [npu.id, npu.affinity, npu.links.NIC0])).toEqual([[0, null, "NA"], [1, null, "NA"]]);
    expect(report.problems).toEqual([]);
  });

  it("keeps the NPU numbers of a container that sees only some NPUs", () => {
    const layout = readLayout(shapes.kunpeng920Lscpu, shapes.containerTopoHiddenNpus).layout;
    expect(layout.npus.map((npu) => [npu.id, npu.numaNode])).toEqual([[4, 0], [5, 0]]);
  });

  it("places each NPU on the node holding its affinity", () => {
    const layout = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoNotDefault).layout;
    expect(layout.npus.map((npu) => npu.numaNode)).toEqual([6, 6, 4, 4, 0, 0, 2, 2]);
  });

  it("reports a row whose affinity cell is not a CPU list", () => {
    const report = parseNpuTopo("      NPU0  NPU1  CPU Affinity\nNPU0  X  HCCS  n/a\nNPU1  HCCS  X  0-3\nsomething else\n");
    expect(report.problems.map((problem) => problem.line)).toEqual([2]);
    expect(report.unknownLines).toEqual([{ line: 4, text: "something else" }]);
  });
});
