/**
 * The port model's input: jobs as placed on a cluster's hosts (lib/jobs), with their environment and the ports their
 * rank table names, and the hosts with their server model. Pure data, so the checks, the planner and the bench need no
 * database.
 */
import type { JobState } from "@/lib/jobs/model";
import type { PortRange } from "./ranges";

/** One rank (process) of a job where it runs, with the ports its rank table gives it. */
export interface PortRank {
  rank: number | null;
  /** The host (the inventory's server_id); null when the rank is not placed. */
  serverId: string | null;
  /** The die it runs on (the topology's `<server>/d<device>`); null when unmatched. */
  dieId: string | null;
  deviceIp: string | null;
  /** The rank table's `backup_device_ip` (the partner die's NIC that carries the backup port). */
  backupDeviceIp?: string | null;
  devicePort?: number | null;
  backupDevicePort?: number | null;
  hostPort?: number | null;
  /** Variables set on this card only (a launcher that sets them per process); the job's environment otherwise. */
  environment?: Record<string, string>;
}

export interface PortJob {
  id: number;
  name: string;
  state: JobState;
  /** Epoch ms; null while pending. */
  startedAt: number | null;
  endedAt: number | null;
  environment: Record<string, string>;
  ranks: PortRank[];
  /** True when the job's communicator comes from a rank table (device_port etc. apply). */
  hasRankTable: boolean;
}

export interface PortHost {
  serverId: string;
  model: string | null;
}

/** Where a port is bound: a host's network namespace, or an NPU's NIC (each die has its own IP). */
export type PortPlane = "host" | "npu";

export const portSources = [
  "HCCL_IF_BASE_PORT",
  "HCCL_HOST_SOCKET_PORT_RANGE",
  "HCCL_NPU_SOCKET_PORT_RANGE",
  "device_port",
  "backup_device_port",
  "host_port",
  "MASTER_PORT",
] as const;
export type PortSource = (typeof portSources)[number];

/** One port (or block) a job binds somewhere, and why. */
export interface PortBinding {
  jobId: number;
  jobName: string;
  serverId: string;
  plane: PortPlane;
  /** `host:<server>` or `nic:<device ip or die>`: two bindings collide only in the same scope. */
  scope: string;
  ports: PortRange;
  source: PortSource;
  /** The variable or field was not set: HCCL's (or torchrun's) default applies. */
  defaulted: boolean;
  /** The ranks that bind it (several when a block serves all the job's processes on a host). */
  ranks: number[];
  /** A block every process of the job on the host shares (HCCL takes one port of it per device), not one process's port. */
  shared: boolean;
}

export interface Lifetime {
  from: number;
  to: number;
}
