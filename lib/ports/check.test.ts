import { describe, expect, it } from "vitest";
import { ifPortSpan, jobPorts } from "./bindings";
import { checkPorts } from "./check";
import { hostName, portHosts, portJob } from "./fixtures";
import { defaultPortPolicy, type PortPolicy } from "./policy";
import { parsePortList } from "./ranges";

const now = 10_000;
const hosts = portHosts(8);
const codes = (policy: PortPolicy, ...jobs: ReturnType<typeof portJob>[]) => checkPorts({ jobs, hosts, policy, now }).findings.map((f) => f.code);
/** A policy under which the defaults are all fine, so each test sees only the finding it provokes. */
const lenient: PortPolicy = { ...defaultPortPolicy, hcclHostRanges: [{ from: 1024, to: 65535 }], hcclNpuRanges: [{ from: 1024, to: 65535 }], hostNetworkRanges: [{ from: 1024, to: 65535 }], reserved: [{ from: 32768, to: 60999 }] };

describe("port lists", () => {
  it("reads ports, ranges, lists and auto, and refuses overlaps and bad ports", () => {
    expect(parsePortList("60000,60050-60100")).toEqual({ kind: "ports", ranges: [{ from: 60000, to: 60000 }, { from: 60050, to: 60100 }] });
    expect(parsePortList("auto")).toEqual({ kind: "auto" });
    expect(() => parsePortList("60000-60010,60005")).toThrow(/overlapping/);
    expect(() => parsePortList("70000")).toThrow(/outside/);
    expect(() => parsePortList("60010-60000")).toThrow(/ends before/);
  });
});

describe("the port model", () => {
  it("takes 16 ports from HCCL_IF_BASE_PORT before CANN 8.2 and 32 from then on or when unknown", () => {
    expect(ifPortSpan("8.0.RC3")).toBe(16);
    expect(ifPortSpan("7.0.0")).toBe(16);
    expect(ifPortSpan("8.2.RC1")).toBe(32);
    expect(ifPortSpan(undefined)).toBe(32);
  });

  it("binds the default block, MASTER_PORT on rank 0's host and 16666 per NIC, each with its reason", () => {
    const { bindings } = jobPorts(portJob({ id: 1, hosts: [0, 1], devices: [0, 1] }));
    const block = bindings.filter((b) => b.source === "HCCL_IF_BASE_PORT");
    expect(block.map((b) => [b.serverId, b.ports, b.defaulted])).toEqual([
      [hostName(0), { from: 60000, to: 60031 }, true],
      [hostName(1), { from: 60000, to: 60031 }, true],
    ]);
    expect(bindings.filter((b) => b.source === "MASTER_PORT").map((b) => [b.serverId, b.ports.from])).toEqual([[hostName(0), 29500]]);
    expect(bindings.filter((b) => b.source === "HCCL_NPU_SOCKET_PORT_RANGE")).toHaveLength(4);
  });

  it("lets HCCL_HOST_SOCKET_PORT_RANGE replace the HCCL_IF_BASE_PORT block, and auto bind nothing fixed", () => {
    const fixed = jobPorts(portJob({ id: 1, hosts: [0], environment: { HCCL_HOST_SOCKET_PORT_RANGE: "61000-61007" } })).bindings;
    expect(fixed.filter((b) => b.plane === "host").map((b) => b.source)).toEqual(["HCCL_HOST_SOCKET_PORT_RANGE", "MASTER_PORT"]);
    const auto = jobPorts(portJob({ id: 1, hosts: [0], environment: { HCCL_HOST_SOCKET_PORT_RANGE: "auto", HCCL_NPU_SOCKET_PORT_RANGE: "auto" } })).bindings;
    expect(auto.map((b) => b.source)).toEqual(["MASTER_PORT"]);
  });
});

describe("port checks", () => {
  it("PT001: two jobs on one host with the default 60000 block conflict while both run, naming both", () => {
    const a = portJob({ id: 1, name: "llama", hosts: [0], devices: [0, 1, 2, 3] });
    const b = portJob({ id: 2, name: "qwen", hosts: [0], devices: [4, 5, 6, 7], environment: { MASTER_PORT: "29600" } });
    const found = checkPorts({ jobs: [a, b], hosts, policy: lenient, now }).findings.filter((f) => f.code === "PT001");
    expect(found).toHaveLength(1);
    expect(found[0]!.servers).toEqual([hostName(0)]);
    expect(found[0]!.message.en).toMatch(/job "llama".*job "qwen"/);
    expect(found[0]!.message.zh).toMatch(/作业“llama”.*作业“qwen”/);
    expect(found[0]!.ports).toEqual({ from: 60000, to: 60031 });
  });

  it("PT001: no conflict when the lifetimes do not overlap", () => {
    const a = portJob({ id: 1, hosts: [0], devices: [0], state: "succeeded", startedAt: 0, endedAt: 500 });
    const b = portJob({ id: 2, hosts: [0], devices: [1], startedAt: 600 });
    expect(codes(lenient, a, b)).not.toContain("PT001");
  });

  it("PT001: two processes of one job on one NPU both on the default 16666", () => {
    const found = checkPorts({ jobs: [portJob({ id: 1, hosts: [0], devices: [0], processes: 2 })], hosts, policy: lenient, now }).findings;
    const pt1 = found.find((f) => f.code === "PT001");
    expect(pt1?.ports).toEqual({ from: 16666, to: 16666 });
    expect(pt1?.parties.map((p) => p.ranks)).toEqual([[0], [1]]);
  });

  it("PT002: the default block in Linux's ephemeral range unreserved, not once reserved per server model", () => {
    const job = portJob({ id: 1, hosts: [0], devices: [0] });
    expect(codes(defaultPortPolicy, job)).toContain("PT002");
    const reserved = { ...defaultPortPolicy, models: { "Atlas 800T A2": { reserved: [{ from: 60000, to: 60031 }] } } };
    expect(codes(reserved, job)).not.toContain("PT002");
  });

  it("PT003 below 1024, PT007 forbidden, PT008 outside the policy", () => {
    expect(codes(lenient, portJob({ id: 1, hosts: [0], devices: [0], environment: { MASTER_PORT: "80" } }))).toContain("PT003");
    expect(codes({ ...lenient, forbidden: [{ from: 60010, to: 60010 }] }, portJob({ id: 1, hosts: [0], devices: [0] }))).toContain("PT007");
    expect(codes(defaultPortPolicy, portJob({ id: 1, hosts: [0], devices: [0] }))).toContain("PT008");
  });

  it("PT004: a socket range smaller than the processes on one NPU", () => {
    const job = portJob({ id: 1, hosts: [0], devices: [0], processes: 3, environment: { HCCL_NPU_SOCKET_PORT_RANGE: "61000-61001" } });
    const found = checkPorts({ jobs: [job], hosts, policy: lenient, now }).findings.find((f) => f.code === "PT004");
    expect(found?.message.en).toMatch(/2 port\(s\) for 3 HCCL processes/);
  });

  it("PT005: the NPU socket range set on some cards only", () => {
    const job = portJob({ id: 1, hosts: [0], devices: [0, 1] });
    job.ranks[0]!.environment = { HCCL_NPU_SOCKET_PORT_RANGE: "61000-61003" };
    const found = checkPorts({ jobs: [job], hosts, policy: lenient, now }).findings.find((f) => f.code === "PT005");
    expect(found?.parties.map((p) => p.ranks)).toEqual([[0], [1]]);
  });

  it("PT006: two jobs on one die; PT009: a value HCCL refuses", () => {
    const a = portJob({ id: 1, hosts: [0], devices: [3], environment: { HCCL_IF_BASE_PORT: "50000", MASTER_PORT: "20000" } });
    const b = portJob({ id: 2, hosts: [0], devices: [3], environment: { HCCL_IF_BASE_PORT: "51000", MASTER_PORT: "20001", HCCL_NPU_SOCKET_PORT_RANGE: "17000" } });
    expect(codes(lenient, a, b)).toEqual(["PT006"]);
    expect(codes(lenient, portJob({ id: 1, hosts: [0], devices: [0], environment: { HCCL_IF_BASE_PORT: "99" } }))).toContain("PT009");
  });
});
