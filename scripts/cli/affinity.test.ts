import { describe, expect, it } from "vitest";
import * as shapes from "@/lib/affinity/fixtures/real-shapes";
import { rankscope } from "@/test/cli";

const files = { "lscpu.txt": shapes.kunpeng920Lscpu, "topo.txt": shapes.a2TopoNotDefault, "zh.txt": shapes.kunpengChineseLscpu };

describe("rankscope affinity", () => {
  it("checks a value: findings with codes and fixes, exit 1 on an error", async () => {
    const out = await rankscope(["affinity", "check", "mode:1,npu0:144-155,npu1:150-167", "--lscpu", "lscpu.txt", "--topo", "topo.txt"], files);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain("error CA009 npu0 and npu1 share CPUs 150-155");
    expect(out.stdout).toContain("fix: Give each NPU its own cores");
    // The shell prompt pasted with the topo is reported, not silently dropped.
    expect(out.stderr).toContain("topo.txt:1: not understood, skipped: (valle) root@valle:~/src# npu-smi info -t topo");
  });

  it("answers JSON with messages in both languages and exits 0 for warnings only", async () => {
    const out = await rankscope(["affinity", "check", "mode:1", "--lscpu", "lscpu.txt", "--topo", "topo.txt", "--format", "json"], files);
    expect(out.status).toBe(0);
    const body = JSON.parse(out.stdout);
    expect(body.check.findings.map((f: { code: string }) => f.code)).toEqual(Array(8).fill("CA012"));
    expect(body.check.findings[0].message.zh).toContain("NUMA 节点 6");
  });

  it("plans and prints the env lines, or the JSON with the value", async () => {
    const env = await rankscope(["affinity", "plan", "--lscpu", "lscpu.txt", "--topo", "topo.txt", "--npus", "0-3", "--reserve", "2", "--format", "env"], files);
    expect(env.status).toBe(0);
    expect(env.stdout).toBe("export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3\nexport CPU_AFFINITY_CONF=mode:1,npu0:146-156,npu1:157-167,npu2:98-108,npu3:109-119\n");
    const json = await rankscope(["affinity", "plan", "--lscpu", "lscpu.txt", "--topo", "topo.txt", "--npus", "0-7", "--mode", "2", "--format", "json"], files);
    expect(JSON.parse(json.stdout).plan.value).toMatch(/^mode:2,npu0:144-155,npu1:156-167,/);
    const text = await rankscope(["affinity", "plan", "--lscpu", "lscpu.txt", "--topo", "topo.txt", "--npus", "0,1", "--lang", "zh"], files);
    expect(text.stdout).toContain("npu0 (NPU 0, node 6): 144-155");
    expect(text.stdout).toContain("使用自定义范围");
  });

  it("exits 1 when no plan fits and 2 for bad input or arguments", async () => {
    expect((await rankscope(["affinity", "plan", "--lscpu", "lscpu.txt", "--npus", "0"], files)).status).toBe(1);
    const noNuma = await rankscope(["affinity", "check", "mode:1", "--lscpu", "topo.txt"], files);
    expect(noNuma.status).toBe(2);
    expect(noNuma.stderr).toContain("NUMA node");
    expect((await rankscope(["affinity", "plan", "--lscpu", "lscpu.txt", "--npus", "x"], files)).status).toBe(2);
    expect((await rankscope(["affinity", "check", "mode:1", "--lscpu", "missing.txt"], files)).status).toBe(2);
    expect((await rankscope(["affinity", "nope"], files)).status).toBe(2);
    expect((await rankscope(["affinity", "--help"], files)).stdout).toContain("Usage: rankscope affinity check VALUE");
  });
});
