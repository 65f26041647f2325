import { backupRailLinks } from "@/lib/inventory/demo";
import type { ClusterSpec, LinkSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";

/**
 * A large Atlas A3 cluster for scale tests and benchmarks: `pods` super pods × `serversPerPod` servers × 8 NPUs ×
 * 2 dies (32 × 32 gives 16,384 dies). Unlike the demo (192.168.<server>.x), addresses are 10.<pod>.<slot>.<6+die>
 * and host IPs 172.20.<pod>.<slot>, so there is room for 256 servers per pod.
 */
export function largeA3Cluster(pods = 32, serversPerPod = 32, slug = "atlas-a3-large"): ClusterSpec {
  const servers: ServerSpec[] = [];
  const byPod: ServerSpec[][] = [];
  for (let pod = 0; pod < pods; pod++) {
    const podServers: ServerSpec[] = [];
    for (let slot = 0; slot < serversPerPod; slot++) {
      const npus: NpuSpec[] = [];
      for (let npuIndex = 0; npuIndex < 8; npuIndex++) {
        npus.push({
          npuIndex,
          dies: ([0, 1] as const).map((dieIndex) => {
            const deviceId = npuIndex * 2 + dieIndex;
            return {
              deviceId,
              dieIndex,
              superDeviceId: slot * 16 + deviceId,
              deviceIp: `10.${pod}.${slot}.${6 + deviceId}`,
              devicePort: 16666,
              backupDeviceIp: `10.${pod}.${slot}.${6 + (deviceId ^ 1)}`,
              backupDevicePort: 16667,
              hostPort: 16665 + deviceId,
            };
          }),
        });
      }
      const server: ServerSpec = {
        serverId: `p${pod}-s${String(slot).padStart(3, "0")}`,
        hostIp: `172.20.${pod}.${slot}`,
        model: "Atlas 800T A3",
        superPodId: `pod-${pod}`,
        npus,
      };
      podServers.push(server);
      servers.push(server);
    }
    byPod.push(podServers);
  }
  const rail = (kind: LinkSpec["kind"], a: ServerSpec, b: ServerSpec): LinkSpec[] =>
    Array.from({ length: 16 }, (_, deviceId) => ({
      kind,
      source: { serverId: a.serverId, deviceId },
      target: { serverId: b.serverId, deviceId },
    }));
  const links: LinkSpec[] = backupRailLinks(servers);
  for (const podServers of byPod) {
    for (let i = 0; i < podServers.length && podServers.length > 1; i++) {
      if (podServers.length === 2 && i === 1) break;
      links.push(...rail("hccs", podServers[i]!, podServers[(i + 1) % podServers.length]!));
    }
  }
  for (let p = 0; p + 1 < byPod.length; p++) {
    for (let slot = 0; slot < serversPerPod; slot++) links.push(...rail("roce", byPod[p]![slot]!, byPod[p + 1]![slot]!));
  }
  return {
    slug,
    name: `Atlas A3 large (${pods} × ${serversPerPod} servers)`,
    mode: "super-pod",
    description: `${pods} super pods × ${serversPerPod} Atlas 800T A3 servers × 8 NPUs × 2 dies, generated`,
    superPodIds: byPod.map((_, pod) => `pod-${pod}`),
    servers,
    links,
  };
}
