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
 * Every device of a rank table (versions 1.0 and 1.2: `server_list[].device[]`; "2.0": `rank_list[]`), read leniently as HCCL would
 * (numbers as strings or numbers): a device with an unusable `rank_id` is kept with `rank: null`, so placement
 * lists it instead of dropping it. The table's own problems are the rank-table checker's business. Returns null
 * when the text is not a rank table with a server list.
 */
export function rankEntries(tableText: string): RankEntry[] | null {
  const value = parseRankTable(tableText).value;
  if (isJsonObject(value) && !Array.isArray(value.server_list) && Array.isArray(value.rank_list)) return a5RankEntries(value.rank_list);
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

/**
 * A "2.0" table's ranks (Atlas 350/850/950: lib/rank-table/a5-model.ts, after HCCL's `rank_table_config_a5.md`): one
 * rank a device, its server the net_layer 0 instance it sits in, as the inventory import names servers
 * (lib/topology/import-a5.ts), so its ranks land on the dies a "2.0" inventory was imported with. Addresses are EIDs
 * per level, not a device IP: none is compared.
 */
function a5RankEntries(rankList: unknown[]): RankEntry[] {
  const entries: RankEntry[] = [];
  for (const rank of rankList) {
    if (!isJsonObject(rank)) continue;
    const levels = Array.isArray(rank.level_list) ? rank.level_list.filter(isJsonObject) : [];
    const layer0 = levels.find((level) => whole(level.net_layer) === 0);
    const rankId = whole(rank.rank_id);
    const serverId = (layer0 && text(layer0.net_instance_id)) ?? (rankId === null ? null : `rank${rankId}`);
    entries.push({ rank: rankId, serverId, hostIp: null, deviceId: whole(rank.device_id), deviceIp: null });
  }
  return entries;
}

/** The `status` of a rank table text ("initializing", "completed", …), or null when it has none or is not JSON. */
export function rankTableStatus(tableText: string): string | null {
  const value = parseRankTable(tableText).value;
  return isJsonObject(value) ? text(value.status) : null;
}
