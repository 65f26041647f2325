/**
 * Cold topology-index build (issue 21 item 4), without a database: a synthetic snapshot of the stored shape
 * (lib/topology/inventory-snapshot.ts) for NPUS NPUs (default 524,288: 8 NPUs a server, 2 dies an NPU, 2 links a
 * die), timed step by step as a fresh process meets it (wall, CPU by process.cpuUsage, heap used after GC): parsing
 * the stored JSON value (what the database driver does), indexing it (indexFromSnapshot), the first cluster view and
 * the first search (which builds the search index), then warm searches. Run:
 * node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/index-build.ts. Prints the load average;
 * asserts no timing.
 */
import os from "node:os";
import { healthOverlay, withHealth } from "@/lib/topology/health-overlay";
import { indexFromSnapshot } from "@/lib/topology/inventory-index";
import { serverModelNames } from "@/lib/inventory/vocabulary";
import type { InventorySnapshot } from "@/lib/topology/inventory-snapshot";
import { searchTopology } from "@/lib/topology/search";
import { buildTopologyView } from "@/lib/topology/view";

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

let text: string | undefined = JSON.stringify(snapshot());
const textMb = text.length / 2 ** 20;
const before = heapMb();
const steps: string[] = [];
const cpu0 = process.cpuUsage();
const t0 = performance.now();
function step<T>(name: string, work: () => T): T {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = work();
  const used = process.cpuUsage(cpu);
  steps.push(`${name} ${(performance.now() - started).toFixed(0)} ms (CPU ${((used.user + used.system) / 1000).toFixed(0)})`);
  return value;
}
let snap: InventorySnapshot | undefined = step("parse", () => JSON.parse(text!) as InventorySnapshot);
const index = step("index", () => indexFromSnapshot({ id: 1, slug: "bench", name: "bench", mode: "super-pod", inventoryRevision: 1 }, snap!));
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const links = snap.links.kind.length;
// The server keeps the index, not the value read nor its text (only its address strings live on in the index).
snap = undefined;
text = undefined;
const indexHeap = heapMb();
const view = step("cluster view", () => JSON.stringify(withHealth(buildTopologyView(index, "cluster", null), healthOverlay(index, []))));
const search = step("first search", () => searchTopology(index, "192.1.2").total);
const server = step("server view", () => JSON.stringify(withHealth(buildTopologyView(index, "server", index.servers[Math.floor(index.servers.length / 2)]!.id), healthOverlay(index, []))));
// Warm: an address prefix, a super device id, a rank, a server id, a host IP prefix.
const warm = ["192.1.2", String(npus), String(npus / 2), `srv-${serversCount - 1}`, "10.0.1"].flatMap((q) => Array.from({ length: 5 }, () => q)).map((q) => {
  const started = performance.now();
  searchTopology(index, q);
  return performance.now() - started;
});
steps.push(`search warm median ${warm.sort((x, y) => x - y)[Math.floor(warm.length / 2)]!.toFixed(2)} ms, max ${warm.at(-1)!.toFixed(1)} ms`);
console.log(`NPUs ${npus}, dies ${index.dieCount}, links ${links}, snapshot ${textMb.toFixed(0)} MB of JSON`);
console.log(steps.join("; ") + ` (view ${(view.length / 1024).toFixed(0)} KB, ${search} hits, server ${(server.length / 1024).toFixed(0)} KB)`);
console.log(`parse + index ${wall.toFixed(0)} ms wall, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; heap used after GC: ${before} MB with the JSON text, ${indexHeap} MB with the index, ${heapMb()} MB with the views and search index; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
