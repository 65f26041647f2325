/**
 * A cluster's port policy: where HCCL's ports go, where KubeDL-style host-network pods (and MASTER_PORT) go, what the
 * hosts' ephemeral range and ip_local_reserved_ports are (per server model, overridden per server), and ports that
 * must never be used. Stored per cluster as JSON and validated here.
 */
import { z } from "zod";
import { LINUX_EPHEMERAL_DEFAULT, MAX_PORT } from "./constants";
import { contains, type PortRange } from "./ranges";

const port = z.number().int().min(1).max(MAX_PORT);
export const portRangeSchema = z
  .strictObject({ from: port, to: port })
  .refine((r) => r.from <= r.to, "a range ends before it starts");
const ranges = z.array(portRangeSchema).max(256);

const hostSettings = z.strictObject({ ephemeral: portRangeSchema.optional(), reserved: ranges.optional() });

export const portPolicySchema = z.strictObject({
  /** Host-side HCCL ports (HCCL_IF_BASE_PORT blocks, HCCL_HOST_SOCKET_PORT_RANGE, rank-table host_port). */
  hcclHostRanges: ranges.min(1),
  /** NPU-side HCCL ports (device_port, backup_device_port, HCCL_NPU_SOCKET_PORT_RANGE). */
  hcclNpuRanges: ranges.min(1),
  /** Host-network pods' ports, MASTER_PORT among them (the seed's KubeDL host mode picks them from a range). */
  hostNetworkRanges: ranges.min(1),
  /** net.ipv4.ip_local_port_range of the hosts unless a model or server says otherwise. */
  ephemeral: portRangeSchema,
  /** net.ipv4.ip_local_reserved_ports of the hosts unless a model or server says otherwise. */
  reserved: ranges,
  /** Ports no job may bind (the node's own services: sshd, kubelet, exporters …). */
  forbidden: ranges,
  models: z.record(z.string().max(200), hostSettings).default({}),
  servers: z.record(z.string().max(200), hostSettings).default({}),
});
export type PortPolicy = z.infer<typeof portPolicySchema>;

/**
 * The default: HCCL's host blocks above Linux's ephemeral range (61000–64999, so nothing needs reserving), NPU ports
 * from HCCL's 16666 on, host-network pods in 20000–29999 (torchrun's 29500 inside), the kubelet's 10250 never.
 */
export const defaultPortPolicy: PortPolicy = {
  hcclHostRanges: [{ from: 61000, to: 64999 }],
  hcclNpuRanges: [{ from: 16666, to: 17999 }],
  hostNetworkRanges: [{ from: 20000, to: 29999 }],
  ephemeral: LINUX_EPHEMERAL_DEFAULT,
  reserved: [],
  forbidden: [{ from: 10250, to: 10250 }],
  models: {},
  servers: {},
};

/** The ephemeral range and reserved ports of one host: the server's own, else its model's, else the cluster's. */
export function hostSettingsOf(policy: PortPolicy, serverId: string, model: string | null): { ephemeral: PortRange; reserved: PortRange[] } {
  const server = policy.servers[serverId];
  const byModel = model === null ? undefined : policy.models[model];
  return {
    ephemeral: server?.ephemeral ?? byModel?.ephemeral ?? policy.ephemeral,
    reserved: server?.reserved ?? byModel?.reserved ?? policy.reserved,
  };
}

/** True when the whole range is inside one of `allowed`. */
export const insideAny = (range: PortRange, allowed: readonly PortRange[]): boolean => allowed.some((a) => contains(a, range));
