/**
 * A plan's outputs for the tools that run jobs: the job's port variables as env lines (per-host values of a failover
 * under the host's name), its rank table with the planned device_port / backup_device_port / host_port written in
 * (canonical form), that table as the Ascend Operator's rings-config ConfigMap, and the changes as a diff.
 */
import { isJsonObject, parseRankTable, writeRankTable } from "@/lib/rank-table";
import { toConfigMap } from "@/lib/rank-table-workspace/configmap";
import { HOST_SOCKET_VARIABLE, IF_BASE_VARIABLE, MASTER_PORT_VARIABLE, NPU_SOCKET_VARIABLE } from "./constants";
import type { PortJob } from "./model";
import type { PortChange } from "./planner";

const portVariables = [IF_BASE_VARIABLE, HOST_SOCKET_VARIABLE, NPU_SOCKET_VARIABLE, MASTER_PORT_VARIABLE];

/** `export NAME=value` lines of the job's port variables, then each host's own values (a failover's) under `# host`. */
export function envLines(job: PortJob): string {
  const lines = portVariables.filter((v) => job.environment[v] !== undefined).map((v) => `export ${v}=${job.environment[v]}`);
  const perHost = new Map<string, Record<string, string>>();
  for (const rank of job.ranks) {
    if (!rank.serverId || !rank.environment) continue;
    const own = Object.fromEntries(portVariables.filter((v) => rank.environment![v] !== undefined).map((v) => [v, rank.environment![v]!]));
    if (Object.keys(own).length > 0) perHost.set(rank.serverId, { ...perHost.get(rank.serverId), ...own });
  }
  for (const [serverId, vars] of [...perHost].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`# host ${serverId}`);
    for (const [name, value] of Object.entries(vars)) lines.push(`export ${name}=${value}`);
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/**
 * The rank table text with each device's planned ports (devices in server_list/device order, as lib/jobs reads them);
 * null when the text is not a rank table. Fields a device did not have and the plan did not set stay absent.
 */
export function patchRankTable(text: string, job: PortJob): string | null {
  const value = parseRankTable(text).value;
  if (!isJsonObject(value) || !Array.isArray(value.server_list)) return null;
  let position = 0;
  for (const server of value.server_list) {
    if (!isJsonObject(server) || !Array.isArray(server.device)) continue;
    for (const device of server.device) {
      if (!isJsonObject(device)) continue;
      const rank = job.ranks[position++];
      if (!rank) continue;
      if (rank.devicePort != null) device.device_port = String(rank.devicePort);
      if (rank.backupDevicePort != null) device.backup_device_port = String(rank.backupDevicePort);
      if (rank.hostPort != null) device.host_port = String(rank.hostPort);
    }
  }
  return writeRankTable(value);
}

export function planConfigMap(patchedText: string, job: { name: string; namespace?: string }): string {
  return toConfigMap(patchedText, { job: job.name, namespace: job.namespace });
}

/** The changes as a unified-diff-like listing: `- field=old` / `+ field=new` under the job, host and rank. */
export function planDiff(changes: readonly PortChange[], lang: "en" | "zh" = "en"): string {
  const out: string[] = [];
  let heading = "";
  for (const c of changes) {
    const where = `${c.jobName}${c.serverId ? ` @ ${c.serverId}` : ""}${c.rank !== null ? ` rank ${c.rank}` : ""}`;
    if (where !== heading) out.push(`@@ ${(heading = where)} @@`);
    out.push(`- ${c.field}=${c.from ?? (lang === "en" ? "(unset: default)" : "（未设置：默认值）")}`, `+ ${c.field}=${c.to}`, `  # ${c.reason[lang]}`);
  }
  return out.length ? `${out.join("\n")}\n` : "";
}

/** Reads the ports of each device of a rank table (same order as lib/jobs/rank-entries), for the port model. */
export function rankTablePorts(text: string): { devicePort: number | null; backupDevicePort: number | null; hostPort: number | null; backupDeviceIp: string | null }[] {
  const value = parseRankTable(text).value;
  if (!isJsonObject(value) || !Array.isArray(value.server_list)) return [];
  const num = (v: unknown): number | null => {
    const t = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : "";
    return /^\d{1,5}$/.test(t) ? Number(t) : null;
  };
  const out: ReturnType<typeof rankTablePorts> = [];
  for (const server of value.server_list) {
    if (!isJsonObject(server) || !Array.isArray(server.device)) continue;
    for (const device of server.device) {
      if (!isJsonObject(device)) continue;
      out.push({
        devicePort: num(device.device_port),
        backupDevicePort: num(device.backup_device_port),
        hostPort: num(device.host_port),
        backupDeviceIp: typeof device.backup_device_ip === "string" && device.backup_device_ip.trim() ? device.backup_device_ip.trim() : null,
      });
    }
  }
  return out;
}
