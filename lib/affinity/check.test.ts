import { describe, expect, it } from "vitest";
import { checkAffinity } from "./check";
import { AFFINITY_RULES } from "./findings";
import * as shapes from "./fixtures/real-shapes";
import { readLayout } from "./layout";

const defaultServer = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoDefault).layout;
const swappedServer = readLayout(shapes.kunpeng920Lscpu, shapes.a2TopoNotDefault).layout;
const codes = (value: string, extra: Partial<Parameters<typeof checkAffinity>[0]> = {}, layout = defaultServer) =>
  checkAffinity({ value, layout, ...extra }).findings.map((f) => f.code);

describe("CPU_AFFINITY_CONF checker", () => {
  it("accepts mode:1 where each NPU's default block is on its own node", () => {
    const result = checkAffinity({ value: "mode:1", layout: defaultServer });
    expect(result.findings).toEqual([]);
    expect(result.bindings.map((binding) => [binding.npu, binding.cpus[0], binding.numaNode])).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, i * 24, i]),
    );
  });

  it("flags mode:1 on the A2 server whose NPU0 sits on node 6 (not the default mapping), with a fix", () => {
    const result = checkAffinity({ value: "mode:1", layout: swappedServer });
    expect(result.findings.map((f) => f.code)).toEqual(Array(8).fill("CA012"));
    expect(result.findings[0]).toMatchObject({ npu: 0, physicalNpu: 0, cpus: "0-23" });
    expect(result.findings[0]?.message.en).toContain("NUMA node 6");
    expect(result.findings[0]?.fix.en).toContain("npu0:144-167");
    expect(result.findings[0]?.message.zh).toContain("NUMA 节点 6");
  });

  it("checks the seed's third example: overrides off their NPU's node", () => {
    expect(codes("mode:1,npu0:0-1,npu1:2-5,npu3:6-6")).toEqual(["CA008", "CA008"]);
  });

  it("finds NPUs of one node given overlapping ranges", () => {
    const value = "mode:1,npu0:144-155,npu1:150-167,npu2:96-107,npu3:108-119,npu4:0-11,npu5:12-23,npu6:48-59,npu7:60-71";
    const result = checkAffinity({ value, layout: swappedServer });
    expect(result.findings.map((f) => [f.code, f.npu, f.otherNpu, f.cpus])).toEqual([["CA009", 0, 1, "150-155"]]);
    expect(result.errors).toBe(1);
  });

  it("reports syntax, unknown options, reversed ranges and devices the process does not have, each at its place", () => {
    const value = "mode:x,npu0:5-2,foo:1,npu9:0-3, npu1:0-1,force:1";
    const result = checkAffinity({ value, layout: defaultServer });
    expect(result.findings.map((f) => f.code)).toEqual(["CA002", "CA004", "CA001", "CA016", "CA005", "CA011"]);
    const reversed = result.findings.find((f) => f.code === "CA005");
    expect(value.slice(reversed?.at?.start, reversed?.at?.end)).toBe("npu0:5-2");
  });

  it("explains npu<N> numbering under ASCEND_RT_VISIBLE_DEVICES and the default blocks it implies", () => {
    const result = checkAffinity({ value: "mode:1,npu4:0-11,npu5:12-23", layout: defaultServer, visibleDevices: "4,5" });
    expect(result.findings.filter((f) => f.code === "CA011").map((f) => f.fix.en)).toEqual([
      expect.stringContaining("npu0:0-11"),
      expect.stringContaining("npu1:12-23"),
    ]);
    // Two visible devices split 192 CPUs in halves: npu0 → 0-95 spans four nodes though NPU4 is on node 4.
    expect(result.findings.filter((f) => f.code === "CA012").map((f) => f.cpus)).toEqual(["0-95", "96-191"]);
  });

  it("flags ASCEND_RT_VISIBLE_DEVICES naming NPUs the server lacks", () => {
    expect(codes("mode:1,npu0:0-23", { visibleDevices: "0,12" })).toContain("CA015");
    expect(codes("mode:1", { visibleDevices: "a,b" })).toEqual(["CA015", "CA014"]);
  });

  it("flags an override for an NPU the job does not use", () => {
    expect(codes("mode:1,npu0:0-11,npu5:120-131", { jobNpus: [0, 1] })).toEqual(["CA010"]);
  });

  it("flags ranges crossing nodes and ranges outside the online CPUs", () => {
    expect(codes("mode:1,npu0:20-30")).toEqual(["CA007", "CA009"]);
    expect(codes("mode:1,npu7:190-200")).toEqual(["CA006"]);
  });

  it("says binding is off when overrides come without a mode, and reads an exported line", () => {
    expect(codes("npu0:0-23")).toEqual(["CA003"]);
    const exported = checkAffinity({ value: 'export CPU_AFFINITY_CONF="mode:1,npu0:0-5"', layout: defaultServer });
    expect(exported.mode).toBe(1);
    expect(exported.value).toBe("mode:1,npu0:0-5");
    expect(exported.findings).toEqual([]);
  });

  it("notes several ranges for one NPU", () => {
    expect(codes("mode:1,npu0:0-5,npu0:8-9")).toEqual(["CA013"]);
  });

  it("skips node checks without a topo and says why", () => {
    const cpusOnly = readLayout(shapes.kunpeng920Lscpu).layout;
    expect(codes("mode:1", {}, cpusOnly)).toEqual(["CA014"]);
    expect(codes("mode:1,npu0:0-23", { jobNpus: [0] }, cpusOnly)).toEqual(["CA014"]);
  });

  it("has an English and a Chinese message and fix for every code", () => {
    for (const [code, rule] of Object.entries(AFFINITY_RULES)) {
      const params = { npu: 0, physical: 0, cpus: "0-1", token: "x", key: "k", value: "1", visible: "0", npuNode: 0, node: 1, nodes: "0, 1" };
      for (const text of [rule.message(params), rule.fix(params)]) {
        expect(text.en, code).toBeTruthy();
        expect(text.zh, code).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });
});
