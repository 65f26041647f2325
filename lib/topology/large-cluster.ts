import { backupRailLinks } from "@/lib/inventory/demo";
import type { ClusterSpec, LinkSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";

/**
 * A large Atlas A3 cluster for scale tests and benchmarks: `pods` super pods × `serversPerPod` servers × 8 NPUs ×
 * 2 dies (32 × 32 gives 16,384 dies); `serversPerPod` may also list each pod's count. Unlike the demo
 * (192.168.<server>.x), addresses are 10.<pod>.<slot>.<6+die> and host IPs 172.20.<pod>.<slot>, so there is room
 * for 256 servers per pod.
 */
export function largeA3Cluster(pods = 32, serversPerPod: number | readonly number[] = 32, slug = "atlas-a3-large"): ClusterSpec {
  const servers: ServerSpec[] = [];
  const byPod: ServerSpec[][] = [];
  const sizeOf = (pod: number) => (typeof serversPerPod === "number" ? serversPerPod : (serversPerPod[pod] ?? 0));
  for (let pod = 0; pod < pods; pod++) {
    const podServers: ServerSpec[] = [];
    for (let slot = 0; slot < sizeOf(pod); slot++) {
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
  // The RoCE plane: each slot's rails to the same slot of the next pod (where both pods have that slot).
  for (let p = 0; p + 1 < byPod.length; p++) {
    for (let slot = 0; slot < Math.min(byPod[p]!.length, byPod[p + 1]!.length); slot++) links.push(...rail("roce", byPod[p]![slot]!, byPod[p + 1]![slot]!));
  }
  const size = typeof serversPerPod === "number" ? String(serversPerPod) : `${Math.min(...serversPerPod)}–${Math.max(...serversPerPod)}`;
  return {
    slug,
    name: `Atlas A3 large (${pods} × ${size} servers)`,
    mode: "super-pod",
    description: `${pods} super pods × ${size} Atlas 800T A3 servers × 8 NPUs × 2 dies, generated`,
    superPodIds: byPod.map((_, pod) => `pod-${pod}`),
    servers,
    links,
  };
}

/**
 * The end-to-end tests' SuperCluster: 64 super pods, as an Atlas 950 SuperCluster has, but small enough to seed in
 * seconds: super pod 0 has 65 servers (1,040 dies, more than a super pod view draws one by one) and the others 16
 * each, 1,073 servers and 17,168 dies in all (more servers than the cluster view draws one by one). Seeded when
 * RANKSCOPE_SEED_SCALE=1 (playwright.config.ts).
 */
export function e2eSuperCluster(): ClusterSpec {
  const spec = largeA3Cluster(64, Array.from({ length: 64 }, (_, pod) => (pod === 0 ? 65 : 16)), "supercluster-e2e");
  return { ...spec, name: "SuperCluster (e2e, 64 super pods)" };
}
