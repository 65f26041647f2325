import type { ClusterSpec, DieSpec, LinkedServer, LinkSpec, NpuSpec, ServerSpec } from "./model";
import { serverModels } from "./vocabulary";

/**
 * The demo inventory, in the style of the HCCL reference's super pod example: device IPs 192.168.<server>.<6+die>,
 * device port 16666, backup port 16667 on the partner die, host ports 16665 + die, super_device_id unique per
 * super pod. Everything is derived from the indexes, so seeding is deterministic.
 */
const superPodSize = 48;
const a3 = serverModels["Atlas 800T A3"];
const a2 = serverModels["Atlas 800T A2"];

function a3Server(pod: number, slot: number): ServerSpec {
  const serverNumber = pod * superPodSize + slot + 1;
  const dieIp = (deviceId: number) => `192.168.${serverNumber}.${6 + deviceId}`;
  const npus: NpuSpec[] = [];
  for (let npuIndex = 0; npuIndex < a3.npus; npuIndex++) {
    const dies: DieSpec[] = [];
    for (let dieIndex = 0 as 0 | 1; dieIndex < a3.diesPerNpu; dieIndex++) {
      const deviceId = npuIndex * a3.diesPerNpu + dieIndex;
      const partner = deviceId ^ 1;
      dies.push({
        deviceId,
        dieIndex,
        superDeviceId: slot * a3.npus * a3.diesPerNpu + deviceId,
        deviceIp: dieIp(deviceId),
        devicePort: 16666,
        backupDeviceIp: dieIp(partner),
        backupDevicePort: 16667,
        hostPort: 16665 + deviceId,
      });
    }
    npus.push({ npuIndex, dies });
  }
  return {
    serverId: `sp${pod}-node${String(slot).padStart(2, "0")}`,
    hostIp: `172.16.${pod}.${100 + slot}`,
    model: "Atlas 800T A3",
    superPodId: String(pod),
    npus,
  };
}

function a2Server(slot: number): ServerSpec {
  const npus: NpuSpec[] = [];
  for (let npuIndex = 0; npuIndex < a2.npus; npuIndex++) {
    npus.push({
      npuIndex,
      dies: [
        {
          deviceId: npuIndex,
          dieIndex: 0,
          superDeviceId: null,
          deviceIp: `10.20.${slot + 1}.${6 + npuIndex}`,
          devicePort: 16667,
          backupDeviceIp: null,
          backupDevicePort: null,
          hostPort: 16666 + npuIndex,
        },
      ],
    });
  }
  return { serverId: `a2-node${slot}`, hostIp: `172.17.0.${10 + slot}`, model: "Atlas 800T A2", superPodId: null, npus };
}

function dieIds(server: ServerSpec): number[] {
  return server.npus.flatMap((npu) => npu.dies.map((die) => die.deviceId));
}

/** Die 2k ↔ 2k+1 of every NPU that has two dies. */
export function backupRailLinks(servers: readonly LinkedServer[]): LinkSpec[] {
  return servers.flatMap((server) =>
    server.npus
      .filter((npu) => npu.dies.length === 2)
      .map((npu) => ({
        kind: "backup-rail" as const,
        source: { serverId: server.serverId, deviceId: npu.dies[0]!.deviceId },
        target: { serverId: server.serverId, deviceId: npu.dies[1]!.deviceId },
      })),
  );
}

/** Same-rail links (die d to die d) from each server to the next one in `servers`, optionally closing the ring. */
function railLinks(kind: LinkSpec["kind"], servers: ServerSpec[], ring: boolean): LinkSpec[] {
  const links: LinkSpec[] = [];
  const last = ring && servers.length > 2 ? servers.length : servers.length - 1;
  for (let i = 0; i < last; i++) {
    const from = servers[i]!;
    const to = servers[(i + 1) % servers.length]!;
    for (const deviceId of dieIds(from)) {
      links.push({ kind, source: { serverId: from.serverId, deviceId }, target: { serverId: to.serverId, deviceId } });
    }
  }
  return links;
}

/** Every pair of NPUs of one server (first die each): the HCCS full mesh inside an A2 server. */
function meshLinks(server: ServerSpec): LinkSpec[] {
  const firstDies = server.npus.map((npu) => npu.dies[0]!.deviceId);
  const links: LinkSpec[] = [];
  for (let i = 0; i < firstDies.length; i++) {
    for (let j = i + 1; j < firstDies.length; j++) {
      links.push({
        kind: "hccs",
        source: { serverId: server.serverId, deviceId: firstDies[i]! },
        target: { serverId: server.serverId, deviceId: firstDies[j]! },
      });
    }
  }
  return links;
}

export function demoA3Cluster(superPods = 2, serversPerPod = superPodSize): ClusterSpec {
  const pods = Array.from({ length: superPods }, (_, pod) =>
    Array.from({ length: serversPerPod }, (_, slot) => a3Server(pod, slot)),
  );
  const servers = pods.flat();
  const hccs = pods.flatMap((pod) => railLinks("hccs", pod, true));
  // The parameter plane pairs the same slot and rail of neighbouring super pods.
  const roce: LinkSpec[] = [];
  for (let p = 0; p + 1 < pods.length; p++) {
    for (let slot = 0; slot < serversPerPod; slot++) {
      roce.push(...railLinks("roce", [pods[p]![slot]!, pods[p + 1]![slot]!], false));
    }
  }
  return {
    slug: "atlas-a3-demo",
    name: "Atlas 900 A3 SuperPoD (demo)",
    mode: "super-pod",
    description: `${superPods} super pods × ${serversPerPod} Atlas 800T A3 servers × 8 NPUs × 2 dies`,
    superPodIds: pods.map((_, pod) => String(pod)),
    servers,
    links: [...backupRailLinks(servers), ...hccs, ...roce],
  };
}

export function demoA2Cluster(serverCount = 4): ClusterSpec {
  const servers = Array.from({ length: serverCount }, (_, slot) => a2Server(slot));
  return {
    slug: "atlas-a2-demo",
    name: "Atlas 800T A2 training (demo)",
    mode: "ai-server",
    description: `${serverCount} Atlas 800T A2 servers × 8 NPUs, AI Server mode`,
    superPodIds: [],
    servers,
    links: [...servers.flatMap(meshLinks), ...railLinks("roce", servers, false)],
  };
}

export function demoClusters(): ClusterSpec[] {
  return [demoA3Cluster(), demoA2Cluster()];
}
