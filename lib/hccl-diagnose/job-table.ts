/**
 * The job's rank table as the diagnosis needs it: the expected ranks and, per rank, its server, die and IPs, so a log
 * that names only a device IP or a server and device id can be pinned to a rank. Also the validator's findings.
 */
import { isJsonObject, validateRankTable, type Issue } from "../rank-table";

export interface TableRank {
  rank: number;
  serverId?: string;
  hostIp?: string;
  deviceId?: number;
  deviceIp?: string;
}

export interface JobTable {
  ranks: Map<number, TableRank>;
  byDeviceIp: Map<string, number>;
  /** `${serverId or hostIp}/${deviceId}` → rank */
  byServerDevice: Map<string, number>;
  /** Error findings of the validator, in both languages (same order). */
  errors: { en: Issue; zh: Issue }[];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : undefined;
}

function whole(value: unknown): number | undefined {
  const raw = text(value);
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** Reads the table leniently (the validator judges it; here we only want what it says about ranks). */
export function readJobTable(raw: string): JobTable {
  const table: JobTable = { ranks: new Map(), byDeviceIp: new Map(), byServerDevice: new Map(), errors: [] };
  const en = validateRankTable(raw, { lang: "en" }).issues;
  const zh = validateRankTable(raw, { lang: "zh" }).issues;
  en.forEach((issue, index) => {
    if (issue.severity === "error") table.errors.push({ en: issue, zh: zh[index] ?? issue });
  });
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return table;
  }
  if (!isJsonObject(value) || !Array.isArray(value.server_list)) return table;
  for (const server of value.server_list) {
    if (!isJsonObject(server) || !Array.isArray(server.device)) continue;
    const serverId = text(server.server_id);
    const hostIp = text(server.host_ip);
    for (const device of server.device) {
      if (!isJsonObject(device)) continue;
      const rank = whole(device.rank_id);
      if (rank === undefined) continue;
      const entry: TableRank = { rank, serverId, hostIp, deviceId: whole(device.device_id), deviceIp: text(device.device_ip) };
      table.ranks.set(rank, entry);
      if (entry.deviceIp) table.byDeviceIp.set(entry.deviceIp, rank);
      if (entry.deviceId !== undefined) {
        for (const name of [serverId, hostIp]) if (name) table.byServerDevice.set(`${name}/${entry.deviceId}`, rank);
      }
    }
  }
  return table;
}
