import { switchTargetKeys, targetKey } from "./model";

/** What the inventory knows of a server, for naming the targets inside it. */
export interface ServerTargets {
  npuIndexes: readonly number[];
  deviceIds: readonly number[];
}

/**
 * The timeline's target filter. A known server (`sp0-node03`) or die (`sp0-node03/5`) matches exactly what belongs
 * to it, as the topology's details panel counts it: its own target keys and the links with one of its dies at either
 * end. So `sp0-node01/1` no longer matches `sp0-node01/10`, and the query can use the target indexes. Any other text
 * is a case-sensitive substring search over target keys, for servers the inventory does not know.
 */
export type TargetFilter = { kind: "exact"; targetKeys: string[]; linkEnds: string[] } | { kind: "search"; text: string };

/** The server a filter text would name (`sp0-node03`, or the server of `sp0-node03/5`), if the inventory knows it. */
export function filterServerId(text: string): string {
  const wanted = text.trim();
  const slash = wanted.lastIndexOf("/");
  return slash < 0 ? wanted : wanted.slice(0, slash);
}

export function targetFilterOf(text: string, serverTargets: (serverId: string) => ServerTargets | undefined): TargetFilter {
  const wanted = text.trim();
  const slash = wanted.lastIndexOf("/");
  const serverId = filterServerId(wanted);
  const server = serverTargets(serverId);
  if (server && slash < 0) {
    return {
      kind: "exact",
      targetKeys: [
        targetKey({ kind: "server", serverId }),
        ...server.npuIndexes.map((npuIndex) => targetKey({ kind: "npu", serverId, npuIndex })),
        ...server.deviceIds.map((deviceId) => targetKey({ kind: "die", serverId, deviceId })),
        ...switchTargetKeys(serverId),
      ],
      linkEnds: server.deviceIds.map((deviceId) => `${serverId}/${deviceId}`),
    };
  }
  const deviceText = wanted.slice(slash + 1);
  const deviceId = /^\d{1,5}$/.test(deviceText) ? Number(deviceText) : NaN;
  if (server && server.deviceIds.includes(deviceId)) {
    return { kind: "exact", targetKeys: [targetKey({ kind: "die", serverId, deviceId })], linkEnds: [`${serverId}/${deviceId}`] };
  }
  return { kind: "search", text: wanted };
}
