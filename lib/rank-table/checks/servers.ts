/** Server rules: server_id (RT020–RT022), host_ip (RT023, RT024, RT026), device list (RT025). */
import { MAX_SERVER_ID_LENGTH } from "../model";
import { isPlainIPv4 } from "../net";
import type { ServerView } from "../table-view";
import { rememberFirst, serverLabel, type CheckContext } from "./context";

export function checkServers({ view, findings }: CheckContext): void {
  const byId = new Map<string, ServerView>();
  const byHostIp = new Map<string, ServerView>();
  const several = view.servers.length > 1;
  for (const server of view.servers) {
    const { serverId, hostIp, path } = server;
    if (serverId === undefined) {
      findings.add("RT020", path);
    } else {
      if (serverId.length > MAX_SERVER_ID_LENGTH) findings.add("RT021", `${path}/server_id`, { value: serverId, length: serverId.length });
      const earlier = rememberFirst(byId, serverId, server);
      if (earlier) findings.add("RT022", `${path}/server_id`, { value: serverId, other: earlier.path });
    }
    if (hostIp === undefined) {
      if (several) findings.add("RT024", path, { server: serverLabel(server) });
    } else if (!isPlainIPv4(hostIp)) {
      findings.add("RT023", `${path}/host_ip`, { value: hostIp });
    } else {
      const earlier = rememberFirst(byHostIp, hostIp, server);
      if (earlier) findings.add("RT026", `${path}/host_ip`, { value: hostIp, other: earlier.path });
    }
    if (server.deviceListMissing) findings.add("RT025", path, { server: serverLabel(server) });
  }
}
