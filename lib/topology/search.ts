import type { IndexedDie, IndexedServer, TopologyIndex } from "./inventory-index";
import type { SearchField, SearchHit, SearchResult } from "./model";

export const SEARCH_LIMIT = 20;

function serverHit(server: IndexedServer, field: SearchField, value: string): SearchHit {
  return { kind: "server", id: server.id, label: server.id, field, value, superPodId: server.pod?.id ?? null, serverId: server.id };
}

function dieHit(die: IndexedDie, field: SearchField, value: string): SearchHit {
  return {
    kind: "die",
    id: die.id,
    label: `${die.server.id} · die ${die.spec.deviceId}`,
    field,
    value,
    superPodId: die.server.pod?.id ?? null,
    serverId: die.server.id,
  };
}

/**
 * Finds servers (by server id or host IP) and dies (by device IP, super device id or inventory rank). Exact matches
 * come first, then prefixes (server ids also by substring); at most `limit` hits, with the total.
 */
export function searchTopology(index: TopologyIndex, query: string, field: SearchField = "any", limit = SEARCH_LIMIT): SearchResult {
  const q = query.trim().toLowerCase();
  if (!q) return { hits: [], total: 0 };
  const exact: SearchHit[] = [];
  const partial: SearchHit[] = [];
  const wants = (f: SearchField) => field === "any" || field === f;
  const isNumber = /^\d+$/.test(q);

  for (const server of index.servers) {
    if (wants("serverId")) {
      const id = server.id.toLowerCase();
      if (id === q) exact.push(serverHit(server, "serverId", server.id));
      else if (id.includes(q)) partial.push(serverHit(server, "serverId", server.id));
    }
    if (wants("hostIp") && server.spec.hostIp) {
      const ip = server.spec.hostIp.toLowerCase();
      if (ip === q) exact.push(serverHit(server, "hostIp", server.spec.hostIp));
      else if (ip.startsWith(q) && !isNumber) partial.push(serverHit(server, "hostIp", server.spec.hostIp));
    }
    for (const die of server.dies) {
      if (wants("deviceIp") && die.spec.deviceIp) {
        const ip = die.spec.deviceIp.toLowerCase();
        if (ip === q) exact.push(dieHit(die, "deviceIp", die.spec.deviceIp));
        else if (ip.startsWith(q) && !isNumber) partial.push(dieHit(die, "deviceIp", die.spec.deviceIp));
      }
      if (isNumber && wants("superDeviceId") && die.spec.superDeviceId !== null && String(die.spec.superDeviceId) === q) {
        exact.push(dieHit(die, "superDeviceId", q));
      }
    }
  }
  if (isNumber && wants("rank")) {
    const die = index.dieByRank[Number(q)];
    if (die) exact.unshift(dieHit(die, "rank", q));
  }
  const all = [...exact, ...partial];
  return { hits: all.slice(0, limit), total: all.length };
}
