/**
 * A failed job on a demo cluster, with its logs: the diagnosis engine's fixture generator (lib/hccl-diagnose/
 * fixtures.ts: real plog shapes, a known culprit) moved onto the cluster's first servers, by replacing the generated
 * server ids, host IPs and device IPs with the inventory's. The demo seed, the integration tests and the end-to-end
 * test use it, so a newcomer sees a diagnosis whose culprit is a die of the demo topology.
 */
import { generateFailedJobLogs, type FailedJobScenario } from "@/lib/hccl-diagnose";
import type { ClusterSpec } from "@/lib/inventory/model";
import { rankEntries } from "./rank-entries";

export interface DemoJobLogs {
  rankTable: string;
  culprit: { rank: number; serverId: string; deviceId: number };
  files(): Iterable<{ path: string; text: string }>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function demoFailedJob(cluster: ClusterSpec, scenario: Omit<FailedJobScenario, "servers" | "devicesPerServer"> & { servers: number }): DemoJobLogs {
  const servers = cluster.servers.slice(0, scenario.servers);
  const devicesPerServer = Math.min(...servers.map((s) => s.npus.reduce((n, npu) => n + npu.dies.length, 0)));
  const generated = generateFailedJobLogs({ ...scenario, servers: servers.length, devicesPerServer });
  const replacements = new Map<string, string>();
  const entries = rankEntries(generated.rankTable) ?? [];
  const serverIndex = new Map<string, number>();
  for (const entry of entries) {
    if (entry.serverId === null || entry.deviceId === null) continue;
    if (!serverIndex.has(entry.serverId)) serverIndex.set(entry.serverId, serverIndex.size);
    const server = servers[serverIndex.get(entry.serverId)!]!;
    const die = server.npus.flatMap((npu) => npu.dies)[entry.deviceId]!;
    replacements.set(entry.serverId, server.serverId);
    if (entry.hostIp && server.hostIp) replacements.set(entry.hostIp, server.hostIp);
    if (entry.deviceIp && die.deviceIp) replacements.set(entry.deviceIp, die.deviceIp);
  }
  const keys = [...replacements.keys()].sort((a, b) => b.length - a.length).map(escape);
  // Whole names and addresses only: 10.0.0.1 is not the start of 10.0.0.12.
  const pattern = new RegExp(`(?<![\\w.])(${keys.join("|")})(?![\\w]|\\.\\d)`, "g");
  const move = (text: string) => text.replace(pattern, (key) => replacements.get(key)!);
  const culpritServer = replacements.get(generated.culprit.serverId) ?? generated.culprit.serverId;
  return {
    rankTable: move(generated.rankTable),
    culprit: { rank: generated.culprit.rank, serverId: culpritServer, deviceId: generated.culprit.deviceId },
    *files() {
      for (const file of generated.files()) yield { path: move(file.path), text: move(file.text) };
    },
  };
}

/**
 * A completed rings-config ConfigMap for a job on `servers` of a cluster, as the Ascend Operator writes it
 * (see rings-config.ts): server_id is the node's host IP, devices with string numbers and ranks in server order,
 * version 1.2 with super_pod_list when the servers are in super pods.
 */
export function demoRingsConfig(servers: ClusterSpec["servers"], job: { name: string; namespace: string; version: string }) {
  let rank = 0;
  const pods = [...new Set(servers.map((s) => s.superPodId).filter((p): p is string => p !== null))];
  const table = {
    status: "completed",
    server_list: servers.map((server) => ({
      device: server.npus.flatMap((npu) =>
        npu.dies.map((die) => ({
          device_id: String(die.deviceId),
          device_ip: die.deviceIp ?? "",
          ...(die.superDeviceId !== null ? { super_device_id: String(die.superDeviceId) } : {}),
          rank_id: String(rank++),
        })),
      ),
      server_id: server.hostIp ?? server.serverId,
      ...(server.hostIp ? { host_ip: server.hostIp } : {}),
    })),
    server_count: String(servers.length),
    version: pods.length ? "1.2" : "1.0",
    ...(pods.length
      ? { super_pod_list: pods.map((pod) => ({ super_pod_id: pod, server_list: servers.filter((s) => s.superPodId === pod).map((s) => ({ server_id: s.hostIp ?? s.serverId })) })) }
      : {}),
  };
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `rings-config-${job.name}`, namespace: job.namespace, labels: { "ring-controller.atlas": "ascend-910b" } },
    data: { "hccl.json": JSON.stringify(table), version: job.version },
  };
}
