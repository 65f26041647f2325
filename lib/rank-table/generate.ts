/**
 * Generators: a rank table from a template (super pods × servers × NPUs × dies, with patterns for ids and
 * addresses), or from each server's /etc/hccn.conf (its `address_N=` lines give the NIC address of device N),
 * in the "1.0" (AI Server) or "1.2" (super pod) layout. Ranks follow the physical order; on two-die NPUs the dies
 * 2k and 2k+1 back each other up in "1.2".
 */
import type { RankTable, RankTableDevice, RankTableServer, RankTableSuperPod } from "./model";
import { compilePattern } from "./pattern";
import { planPorts, type DevicePorts } from "./repair";

export interface RankTableTemplate {
  /** Default "1.2". */
  version?: "1.0" | "1.2";
  /** Default "completed". */
  status?: "completed" | "initializing";
  /** Default 1. In "1.0" there is no super_pod_list; the table simply has superPods × serversPerSuperPod servers. */
  superPods?: number;
  /** Default 1. */
  serversPerSuperPod?: number;
  /** Default 8. */
  npusPerServer?: number;
  /** Default 2 (Atlas A3: every NPU has two dies, each a device and a rank). */
  diesPerNpu?: number;
  /**
   * Patterns (see pattern.ts); variables: pod (super pod index), server (index over the table), local (index
   * within its super pod), npu, die, device (device_id = npu × diesPerNpu + die), devices (devices per server).
   */
  serverId?: string;
  /** null leaves host_ip out. */
  hostIp?: string | null;
  /** null leaves device_ip out. */
  deviceIp?: string | null;
  superPodId?: string;
  superDeviceId?: string;
  /** Pair the two dies of each NPU as backups (only "1.2" with two dies). Default true. */
  backup?: boolean;
  /** Assign host_port / device_port / backup_device_port from this port (see assignPorts); default: no ports. */
  basePort?: number;
}

export const TEMPLATE_DEFAULTS = {
  version: "1.2",
  status: "completed",
  superPods: 1,
  serversPerSuperPod: 1,
  npusPerServer: 8,
  diesPerNpu: 2,
  serverId: "node_{server}",
  hostIp: "172.16.{server/256}.{server%256}",
  deviceIp: "10.{server/256}.{server%256}.{device}",
  superPodId: "{pod}",
  superDeviceId: "{local*devices+device}",
  backup: true,
} as const satisfies RankTableTemplate;

const TEMPLATE_VARIABLES = ["pod", "server", "local", "npu", "die", "device", "devices"] as const;

function positiveCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number ≥ 1, not ${value}`);
  return value;
}

/** Builds a rank table from a template. Throws (RangeError, PatternError) when the template is unusable. */
export function generateFromTemplate(template: RankTableTemplate = {}): RankTable {
  const settings = { ...TEMPLATE_DEFAULTS, ...template };
  const superPods = positiveCount("superPods", settings.superPods);
  const serversPerSuperPod = positiveCount("serversPerSuperPod", settings.serversPerSuperPod);
  const npus = positiveCount("npusPerServer", settings.npusPerServer);
  const dies = positiveCount("diesPerNpu", settings.diesPerNpu);
  const devicesPerServer = npus * dies;
  const superPodMode = settings.version === "1.2";
  const serverId = compilePattern(settings.serverId, TEMPLATE_VARIABLES);
  const hostIp = settings.hostIp === null ? undefined : compilePattern(settings.hostIp, TEMPLATE_VARIABLES);
  const deviceIp = settings.deviceIp === null ? undefined : compilePattern(settings.deviceIp, TEMPLATE_VARIABLES);
  const superPodId = compilePattern(settings.superPodId, TEMPLATE_VARIABLES);
  const superDeviceId = compilePattern(settings.superDeviceId, TEMPLATE_VARIABLES);
  const portsOf = settings.basePort === undefined ? undefined : planPorts(settings.basePort, devicesPerServer);
  const pairDies = superPodMode && settings.backup && dies === 2 && deviceIp !== undefined;

  const serverList: RankTableServer[] = [];
  const superPodList: RankTableSuperPod[] = [];
  let rank = 0;
  for (let pod = 0; pod < superPods; pod++) {
    const members: { server_id: string }[] = [];
    for (let local = 0; local < serversPerSuperPod; local++) {
      const server = pod * serversPerSuperPod + local;
      const serverVariables = { pod, server, local, npu: 0, die: 0, device: 0, devices: devicesPerServer };
      const variablesOf = (id: number) => ({ ...serverVariables, npu: Math.floor(id / dies), die: id % dies, device: id });
      const device: RankTableDevice[] = [];
      for (let id = 0; id < devicesPerServer; id++) {
        const variables = variablesOf(id);
        device.push(makeDevice({
          deviceId: String(id),
          superDeviceId: superPodMode ? superDeviceId(variables) : undefined,
          deviceIp: deviceIp?.(variables),
          backupDeviceIp: pairDies ? deviceIp!(variablesOf(id ^ 1)) : undefined,
          ports: portsOf?.(id),
          rankId: String(rank++),
        }));
      }
      const id = serverId(serverVariables);
      serverList.push(hostIp ? { server_id: id, host_ip: hostIp(serverVariables), device } : { server_id: id, device });
      members.push({ server_id: id });
    }
    superPodList.push({ super_pod_id: superPodId({ pod, server: pod * serversPerSuperPod, local: 0, npu: 0, die: 0, device: 0, devices: devicesPerServer }), server_list: members });
  }
  return assembleTable(settings.status, superPodMode, serverList, superPodList);
}

interface DeviceFields {
  deviceId: string;
  superDeviceId: string | undefined;
  deviceIp: string | undefined;
  backupDeviceIp: string | undefined;
  ports: DevicePorts | undefined;
  rankId: string;
}

/** A device entry with its keys in canonical order; backup_device_port only where there is a backup NIC. */
function makeDevice(fields: DeviceFields): RankTableDevice {
  const device: RankTableDevice = { device_id: fields.deviceId } as RankTableDevice;
  if (fields.superDeviceId !== undefined) device.super_device_id = fields.superDeviceId;
  if (fields.deviceIp !== undefined) device.device_ip = fields.deviceIp;
  if (fields.ports) device.device_port = fields.ports.devicePort;
  if (fields.backupDeviceIp !== undefined) {
    device.backup_device_ip = fields.backupDeviceIp;
    if (fields.ports) device.backup_device_port = fields.ports.backupDevicePort;
  }
  if (fields.ports) device.host_port = fields.ports.hostPort;
  device.rank_id = fields.rankId;
  return device;
}

function assembleTable(status: RankTable["status"], superPodMode: boolean, serverList: RankTableServer[], superPodList: RankTableSuperPod[]): RankTable {
  const table: RankTable = { status, version: superPodMode ? "1.2" : "1.0", server_count: String(serverList.length), server_list: serverList };
  if (superPodMode) table.super_pod_list = superPodList;
  return table;
}

/** The NIC addresses of /etc/hccn.conf: `address_N=IP` gives device N's device_ip. Other lines are ignored. */
export function parseHccnConf(text: string): Map<number, string> {
  const addresses = new Map<number, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*address_(\d+)\s*=\s*(\S+)\s*$/.exec(line);
    if (match) addresses.set(Number(match[1]), match[2]!);
  }
  return addresses;
}

export interface HccnServer {
  serverId: string;
  hostIp?: string;
  /** The text of the server's /etc/hccn.conf. */
  hccnConf: string;
  /** The super pod of the server ("1.2"); default "0". Servers are grouped by super pod, keeping first-seen order. */
  superPodId?: string;
}

export interface HccnOptions {
  version: "1.0" | "1.2";
  status?: RankTable["status"];
  /** Pair dies 2k and 2k+1 as backups ("1.2"). Default true. */
  backup?: boolean;
  basePort?: number;
}

/**
 * Builds a rank table from the hccn.conf of each server, as generator scripts (hccl_tools.py) do. In "1.2" the
 * super_device_id of each device is its position within its super pod (0, 1, 2, …): a placeholder numbering that
 * is unique per super pod; the real SDIDs come from `npu-smi info -t spod-info` and may be put in afterwards.
 */
export function generateFromHccn(servers: readonly HccnServer[], options: HccnOptions): RankTable {
  const superPodMode = options.version === "1.2";
  const byPod = new Map<string, HccnServer[]>();
  for (const server of servers) {
    const pod = superPodMode ? (server.superPodId ?? "0") : "";
    const members = byPod.get(pod);
    if (members) members.push(server);
    else byPod.set(pod, [server]);
  }
  const addressesOf = new Map(servers.map((server) => [server, parseHccnConf(server.hccnConf)]));
  let width = 0;
  for (const addresses of addressesOf.values()) width = Math.max(width, addresses.size);
  const portsOf = options.basePort === undefined ? undefined : planPorts(options.basePort, width);
  const serverList: RankTableServer[] = [];
  const superPodList: RankTableSuperPod[] = [];
  let rank = 0;
  for (const [superPodId, members] of byPod) {
    let superDeviceId = 0;
    for (const server of members) {
      const byId = addressesOf.get(server)!;
      const ids = [...byId.keys()].sort((a, b) => a - b);
      const pairDies = superPodMode && options.backup !== false;
      const device = ids.map((id, index) => makeDevice({
        deviceId: String(id),
        superDeviceId: superPodMode ? String(superDeviceId++) : undefined,
        deviceIp: byId.get(id),
        backupDeviceIp: pairDies ? byId.get(id ^ 1) : undefined,
        ports: portsOf?.(index),
        rankId: String(rank++),
      }));
      serverList.push(server.hostIp ? { server_id: server.serverId, host_ip: server.hostIp, device } : { server_id: server.serverId, device });
    }
    superPodList.push({ super_pod_id: superPodId, server_list: members.map((server) => ({ server_id: server.serverId })) });
  }
  return assembleTable(options.status ?? "completed", superPodMode, serverList, superPodList);
}
