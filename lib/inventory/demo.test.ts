import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "./demo";
import { countInventory } from "./model";

describe("demo inventory", () => {
  const a3 = demoA3Cluster();

  it("is two Atlas 900 A3 super pods: 96 servers, 768 NPUs, 1,536 dies", () => {
    expect(countInventory(a3)).toEqual({ superPods: 2, servers: 96, npus: 768, devices: 1536 });
  });

  it("gives every die a device IP that no other die has", () => {
    const ips = a3.servers.flatMap((s) => s.npus.flatMap((n) => n.dies.map((d) => d.deviceIp)));
    expect(new Set(ips).size).toBe(1536);
  });

  it("pairs the two dies of each NPU as each other's backup NIC", () => {
    const server = a3.servers[5]!;
    for (const npu of server.npus) {
      const [die0, die1] = npu.dies;
      expect(die0!.deviceId).toBe(npu.npuIndex * 2);
      expect(die1!.deviceId).toBe(npu.npuIndex * 2 + 1);
      expect(die0!.backupDeviceIp).toBe(die1!.deviceIp);
      expect(die1!.backupDeviceIp).toBe(die0!.deviceIp);
    }
    const rails = a3.links.filter((l) => l.kind === "backup-rail");
    expect(rails).toHaveLength(768);
    expect(rails.every((l) => l.source.serverId === l.target.serverId && (l.source.deviceId ^ 1) === l.target.deviceId)).toBe(true);
  });

  it("keeps super_device_id unique within each super pod and host ports unique within each server", () => {
    for (const podId of a3.superPodIds) {
      const ids = a3.servers
        .filter((s) => s.superPodId === podId)
        .flatMap((s) => s.npus.flatMap((n) => n.dies.map((d) => d.superDeviceId)));
      expect(new Set(ids).size).toBe(ids.length);
    }
    const hostPorts = a3.servers[0]!.npus.flatMap((n) => n.dies.map((d) => d.hostPort));
    expect(new Set(hostPorts).size).toBe(16);
  });

  it("links HCCS only inside a super pod and RoCE only across super pods", () => {
    const podOf = new Map(a3.servers.map((s) => [s.serverId, s.superPodId]));
    for (const link of a3.links) {
      const samePod = podOf.get(link.source.serverId) === podOf.get(link.target.serverId);
      if (link.kind === "hccs") expect(samePod).toBe(true);
      if (link.kind === "roce") expect(samePod).toBe(false);
    }
    expect(a3.links.filter((l) => l.kind === "roce")).toHaveLength(48 * 16);
  });

  it("builds the A2 cluster in AI Server mode with one die per NPU", () => {
    const a2 = demoA2Cluster();
    expect(a2.mode).toBe("ai-server");
    expect(countInventory(a2)).toEqual({ superPods: 0, servers: 4, npus: 32, devices: 32 });
    expect(a2.servers.every((s) => s.superPodId === null)).toBe(true);
  });
});
