import { isJsonObject, parseRankTable } from "@/lib/rank-table";
import type { RankEntry } from "./model";

const text = (value: unknown): string | null => {
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (typeof value === "number") return String(value);
  return null;
};

const whole = (value: unknown): number | null => {
  const t = text(value);
  return t !== null && /^\d{1,9}$/.test(t) ? Number(t) : null;
};

/**
 * Every device of a rank table (versions 1.0 and 1.2: `server_list[].device[]`), read leniently as HCCL would
 * (numbers as strings or numbers): a device with an unusable `rank_id` is kept with `rank: null`, so placement
 * lists it instead of dropping it. The table's own problems are the rank-table checker's business. Returns null
 * when the text is not a rank table with a server list.
 */
export function rankEntries(tableText: string): RankEntry[] | null {
  const value = parseRankTable(tableText).value;
  if (!isJsonObject(value) || !Array.isArray(value.server_list)) return null;
  const entries: RankEntry[] = [];
  for (const server of value.server_list) {
    if (!isJsonObject(server)) continue;
    const serverId = text(server.server_id);
    const hostIp = text(server.host_ip);
    if (!Array.isArray(server.device)) continue;
    for (const device of server.device) {
      if (!isJsonObject(device)) continue;
      entries.push({ rank: whole(device.rank_id), serverId, hostIp, deviceId: whole(device.device_id), deviceIp: text(device.device_ip) });
    }
  }
  return entries;
}

/** The `status` of a rank table text ("initializing", "completed", …), or null when it has none or is not JSON. */
export function rankTableStatus(tableText: string): string | null {
  const value = parseRankTable(tableText).value;
  return isJsonObject(value) ? text(value.status) : null;
}
