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
