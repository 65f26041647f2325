/** Server rules: server_id (RT020–RT022), host_ip (RT023, RT024, RT026), device list (RT025). */
import type { Findings } from "../findings";
import { MAX_SERVER_ID_LENGTH } from "../model";
import { isPlainIPv4 } from "../net";
import type { ServerView } from "../table-view";
import { rememberFirst, serverLabel, type CheckContext } from "./context";

/**
 * What the rules of one server read from the others: whether the table has several servers, and the first server
 * before it with the same key (undefined when it is the first), asked only for a server_id and a valid host_ip.
 * The full run remembers the first holder as it walks; the editor's incremental validator keeps holder indexes.
 */
export interface ServerKeys {
  several: boolean;
  earlierWithId(server: ServerView, serverId: string): ServerView | undefined;
  earlierWithHostIp(server: ServerView, hostIp: string): ServerView | undefined;
}

export function checkServers({ view, findings }: CheckContext): void {
  const byId = new Map<string, ServerView>();
  const byHostIp = new Map<string, ServerView>();
  const keys: ServerKeys = {
    several: view.servers.length > 1,
    earlierWithId: (server, serverId) => rememberFirst(byId, serverId, server),
    earlierWithHostIp: (server, hostIp) => rememberFirst(byHostIp, hostIp, server),
  };
  for (const server of view.servers) checkServer(server, keys, findings);
}

export function checkServer(server: ServerView, keys: ServerKeys, findings: Findings): void {
  const { serverId, hostIp, path } = server;
  if (serverId === undefined) {
    findings.add("RT020", path);
  } else {
    if (serverId.length > MAX_SERVER_ID_LENGTH) findings.add("RT021", `${path}/server_id`, { value: serverId, length: serverId.length });
    const earlier = keys.earlierWithId(server, serverId);
    if (earlier) findings.add("RT022", `${path}/server_id`, { value: serverId, other: earlier.path });
  }
  if (hostIp === undefined) {
    if (keys.several) findings.add("RT024", path, { server: serverLabel(server) });
  } else if (!isPlainIPv4(hostIp)) {
    findings.add("RT023", `${path}/host_ip`, { value: hostIp });
  } else {
    const earlier = keys.earlierWithHostIp(server, hostIp);
    if (earlier) findings.add("RT026", `${path}/host_ip`, { value: hostIp, other: earlier.path });
  }
  if (server.deviceListMissing) findings.add("RT025", path, { server: serverLabel(server) });
}
