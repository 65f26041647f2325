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

/**
 * A large Atlas 800T A2 cluster in AI Server mode (no super pods, a "1.0" table): `count` servers × 8 NPUs, one die
 * each, the HCCS full mesh inside each server and RoCE rails between consecutive servers. Addresses are
 * 10.<100 + server / 256>.<server % 256>.<6 + device> so that thousands of servers stay valid.
 */
export function largeA2Cluster(count: number, slug = "atlas-a2-large"): ClusterSpec {
  const servers: ServerSpec[] = Array.from({ length: count }, (_, slot) => ({
    serverId: `a2-${String(slot).padStart(4, "0")}`,
    hostIp: `172.21.${Math.floor(slot / 256)}.${slot % 256}`,
    model: "Atlas 800T A2",
    superPodId: null,
    npus: Array.from({ length: 8 }, (_, npuIndex) => ({
      npuIndex,
      dies: [
        {
          deviceId: npuIndex,
          dieIndex: 0 as const,
          superDeviceId: null,
          deviceIp: `10.${100 + Math.floor(slot / 256)}.${slot % 256}.${6 + npuIndex}`,
          devicePort: 16667,
          backupDeviceIp: null,
          backupDevicePort: null,
          hostPort: 16666 + npuIndex,
        },
      ],
    })),
  }));
  const links: LinkSpec[] = [];
  for (const server of servers) {
    for (let a = 0; a < 8; a++) {
      for (let b = a + 1; b < 8; b++) links.push({ kind: "hccs", source: { serverId: server.serverId, deviceId: a }, target: { serverId: server.serverId, deviceId: b } });
    }
  }
  for (let i = 0; i + 1 < servers.length; i++) {
    for (let deviceId = 0; deviceId < 8; deviceId++) links.push({ kind: "roce", source: { serverId: servers[i]!.serverId, deviceId }, target: { serverId: servers[i + 1]!.serverId, deviceId } });
  }
  return {
    slug,
    name: `Atlas A2 large (${count} servers)`,
    mode: "ai-server",
    description: `${count} Atlas 800T A2 servers × 8 NPUs, AI Server mode, generated`,
    superPodIds: [],
    servers,
    links,
  };
}

/**
 * The end-to-end tests' cluster of plain servers: 1,040 Atlas 800T A2 servers (8,320 dies), more than the cluster
 * view draws one by one, so it is drawn by rack (130 racks of 8 servers), and those are more than a row holds, so by
 * row of racks (rows of 128 racks: 2 rows). Seeded with e2eSuperCluster.
 */
export function e2ePlainCluster(): ClusterSpec {
  return { ...largeA2Cluster(1040, "a2-plain-e2e"), name: "A2 plain servers (e2e, 1,040 servers)" };
}
