import { describe, expect, it } from "vitest";
import { envLines, patchRankTable, planConfigMap, planDiff, rankTablePorts } from "./export";
import { hostName, portHosts, portJob } from "./fixtures";
import { planPorts } from "./planner";
import { defaultPortPolicy } from "./policy";

const table = JSON.stringify({
  version: "1.0",
  server_count: "1",
  status: "completed",
  server_list: [{ server_id: hostName(0), device: [
    { device_id: "0", device_ip: "10.0.0.1", rank_id: "0", device_port: "16666" },
    { device_id: "0", device_ip: "10.0.0.1", rank_id: "1", device_port: "16666" },
  ] }],
});

describe("plan exports", () => {
  it("writes the planned ports into the rank table, its ConfigMap, env lines and a diff", () => {
    expect(rankTablePorts(table).map((d) => d.devicePort)).toEqual([16666, 16666]);
    const job = portJob({ id: 1, name: "bert", state: "pending", hosts: [0], devices: [0], processes: 2, rankTable: {} });
    const plan = planPorts({ jobs: [job], hosts: portHosts(1), policy: defaultPortPolicy, now: 0 });
    const planned = plan.jobs[0]!;
    const patched = patchRankTable(table, planned)!;
    expect(rankTablePorts(patched).map((d) => d.devicePort)).toEqual([16666, 16667]);
    expect(planConfigMap(patched, { name: "bert" })).toMatch(/name: rings-config-bert[\s\S]*"device_port": "16667"/);
    // torchrun's 29500 is inside the host-network range: kept, so not written.
    expect(envLines(planned)).toBe("export HCCL_IF_BASE_PORT=61000\n");
    const diff = planDiff(plan.changes);
    expect(diff).toContain("@@ bert @@\n- HCCL_IF_BASE_PORT=(unset: default)\n+ HCCL_IF_BASE_PORT=61000");
    expect(diff).toContain(`@@ bert @ ${hostName(0)} rank 1 @@\n- device_port=16666\n+ device_port=16667`);
    expect(planDiff(plan.changes, "zh")).toContain("（未设置：默认值）");
  });

  it("lists a failover's per-host values under the host", () => {
    const job = portJob({ id: 1, hosts: [0, 1], devices: [0], environment: { HCCL_IF_BASE_PORT: "61000" } });
    job.ranks[1]!.environment = { HCCL_IF_BASE_PORT: "61032" };
    expect(envLines(job)).toBe(`export HCCL_IF_BASE_PORT=61000\n# host ${hostName(1)}\nexport HCCL_IF_BASE_PORT=61032\n`);
  });
});
