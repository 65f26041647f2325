/** Small job sets for the port tests and the bench: jobs on hosts `node-<n>` with dies `node-<n>/d<k>`. */
import type { JobState } from "@/lib/jobs/model";
import type { PortHost, PortJob, PortRank } from "./model";

export interface JobSpec {
  id: number;
  name?: string;
  state?: JobState;
  startedAt?: number | null;
  endedAt?: number | null;
  /** Hosts (numbers) and the devices used on each (default 0–7). */
  hosts: readonly number[];
  devices?: readonly number[];
  /** Processes per device (default 1). */
  processes?: number;
  environment?: Record<string, string>;
  /** Rank-table job: device_port 16666, host_port 16665 + device unless given. */
  rankTable?: { devicePort?: number; hostPort?: boolean; backupDevicePort?: number };
}

export const hostName = (n: number): string => `node-${String(n).padStart(4, "0")}`;
export const deviceIpOf = (host: number, device: number): string => `10.${(host >> 8) & 255}.${host & 255}.${device + 1}`;

export function portJob(spec: JobSpec): PortJob {
  const devices = spec.devices ?? [0, 1, 2, 3, 4, 5, 6, 7];
  const ranks: PortRank[] = [];
  let rank = 0;
  for (const host of spec.hosts) {
    for (const device of devices) {
      for (let p = 0; p < (spec.processes ?? 1); p++) {
        const serverId = hostName(host);
        const r: PortRank = { rank: rank++, serverId, dieId: `${serverId}/d${device}`, deviceIp: deviceIpOf(host, device) };
        if (spec.rankTable) {
          r.devicePort = spec.rankTable.devicePort ?? 16666;
          if (spec.rankTable.hostPort) r.hostPort = 16665 + device;
          if (spec.rankTable.backupDevicePort !== undefined) {
            r.backupDeviceIp = deviceIpOf(host, device ^ 1);
            r.backupDevicePort = spec.rankTable.backupDevicePort;
          }
        }
        ranks.push(r);
      }
    }
  }
  const state = spec.state ?? "running";
  return {
    id: spec.id,
    name: spec.name ?? `job-${spec.id}`,
    state,
    startedAt: spec.startedAt !== undefined ? spec.startedAt : state === "pending" ? null : 1_000,
    endedAt: spec.endedAt ?? null,
    environment: { ...spec.environment },
    ranks,
    hasRankTable: spec.rankTable !== undefined,
  };
}

export const portHosts = (count: number, model = "Atlas 800T A2"): PortHost[] => Array.from({ length: count }, (_, i) => ({ serverId: hostName(i), model }));
