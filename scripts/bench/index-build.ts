/**
 * Cold topology-index build (issue 21 item 4), without a database: a synthetic snapshot of the stored shape
 * (lib/topology/inventory-snapshot.ts) for NPUS NPUs (default 524,288: 8 NPUs a server, 2 dies an NPU, 2 links a
 * die), then inventoryFromSnapshot + buildTopologyIndex timed: wall, CPU (process.cpuUsage) and heap after GC.
 * Run: node --expose-gc --import tsx scripts/bench/index-build.ts. Prints the load average; asserts no timing.
 */
import os from "node:os";
import { buildTopologyIndex } from "@/lib/topology/inventory-index";
import { serverModelNames } from "@/lib/inventory/vocabulary";
import { inventoryFromSnapshot, type InventorySnapshot } from "@/lib/topology/inventory-snapshot";

const npus = Number(process.env.NPUS ?? 524_288);
const serversCount = npus / 8;
const pods = Math.max(1, npus / 8192);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heapMb = () => (gc(), Math.round(process.memoryUsage().heapUsed / 1048576));

function snapshot(): InventorySnapshot {
  const superPodIds = Array.from({ length: pods }, (_, i) => String(i));
  const servers: InventorySnapshot["servers"] = [];
  const d = { server: [] as number[], npuIndex: [] as number[], deviceId: [] as number[], dieIndex: [] as (0 | 1)[], superDeviceId: [] as (number | null)[], deviceIp: [] as (string | null)[], devicePort: [] as (number | null)[], backupDeviceIp: [] as (string | null)[], backupDevicePort: [] as (number | null)[], hostPort: [] as (number | null)[] };
  for (let s = 0; s < serversCount; s++) {
    servers.push([`srv-${s}`, `10.${(s >> 16) & 255}.${(s >> 8) & 255}.${s & 255}`, serverModelNames[0], String(Math.floor(s / (serversCount / pods)))]);
    for (let n = 0; n < 8; n++)
      for (let k = 0; k < 2; k++) {
        d.server.push(s); d.npuIndex.push(n); d.deviceId.push(n * 2 + k); d.dieIndex.push(k as 0 | 1);
        d.superDeviceId.push(s * 16 + n * 2 + k); d.deviceIp.push(`192.${s & 255}.${n}.${k}`); d.devicePort.push(null);
        d.backupDeviceIp.push(null); d.backupDevicePort.push(null); d.hostPort.push(null);
      }
  }
  const dies = d.server.length;
  const links = { kind: [] as number[], source: [] as number[], target: [] as number[] };
  for (let i = 0; i < dies; i++) {
    links.kind.push(0); links.source.push(i); links.target.push(i ^ 1);
    links.kind.push(1); links.source.push(i); links.target.push((i + 16) % dies);
  }
  return { format: 1, superPodIds, servers, dies: d, kinds: ["net-layer-0", "net-layer-1"], links };
}

const snap = JSON.parse(JSON.stringify(snapshot())) as InventorySnapshot;
const before = heapMb();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const spec = inventoryFromSnapshot(snap);
const t1 = performance.now();
const index = buildTopologyIndex({ id: 1, slug: "bench", name: "bench", mode: "super-pod", inventoryRevision: 1 }, spec);
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
console.log(`NPUs ${npus}, dies ${index.dieByRank.length}, links ${snap.links.kind.length}`);
console.log(`decode ${(t1 - t0).toFixed(0)} ms, build ${(t2 - t1).toFixed(0)} ms wall; CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; heap retained ${heapMb() - before} MB; load ${os.loadavg()[0]!.toFixed(1)}`);
