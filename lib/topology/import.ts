import { backupRailLinks } from "@/lib/inventory/demo";
import type { ClusterSpec, DieSpec, LinkedServer, LinkSpec, NpuSpec, ServerSpec } from "@/lib/inventory/model";
import type { ClusterMode, ServerModel } from "@/lib/inventory/vocabulary";
import { isJsonObject, parseRankTable, validateRankTable, type Issue, type JsonObject } from "@/lib/rank-table";
import { A5_VERSION } from "@/lib/rank-table/a5-model";
import { inventoryFromA5Table } from "./import-a5";

/**
 * Inventory from a rank table: read the table (with the rank-table engine; a table with errors is refused), turn it
 * into the inventory's shape, and compare it with the cluster's current inventory: what would be added, changed and
 * removed, and the conflicts an operator must see before anything is written.
 */
export type Inventory = Pick<ClusterSpec, "mode" | "superPodIds" | "servers" | "links">;

export interface ImportedTable {
  inventory: Inventory;
  /** The engine's findings; errors make the table unusable. */
  issues: Issue[];
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : typeof value === "number" ? String(value) : null);
const int = (value: unknown): number | null => {
  const t = text(value);
  return t !== null && /^\d+$/.test(t) ? Number(t) : null;
};

/** Die d of an A3 server is die d % 2 of NPU ⌊d / 2⌋ (the seed's pairing 2k ↔ 2k+1); A2 servers have one die per NPU. */
function npusOf(devices: DieSpec[], model: ServerModel): NpuSpec[] {
  const byNpu = new Map<number, DieSpec[]>();
  for (const die of [...devices].sort((a, b) => a.deviceId - b.deviceId)) {
    const npuIndex = model === "Atlas 800T A3" ? Math.floor(die.deviceId / 2) : die.deviceId;
    byNpu.set(npuIndex, [...(byNpu.get(npuIndex) ?? []), die]);
  }
  return [...byNpu.entries()].sort(([a], [b]) => a - b).map(([npuIndex, dies]) => ({ npuIndex, dies }));
}

/**
 * The inventory links a table implies: the backup rail of every two-die NPU, the HCCS plane (a ring through each
 * super pod's servers, rail by rail; a full mesh of NPUs inside an A2 server) and the RoCE plane (the same slot and
 * rail of neighbouring super pods; neighbouring servers in AI Server mode) — as the demo inventory draws them. One
 * at a time, in the same order every time (a streamed import writes them in batches: lib/topology/import-stream.ts).
 */
export function* impliedLinks(mode: ClusterMode, superPodIds: readonly string[], servers: readonly LinkedServer[]): Generator<LinkSpec> {
  const rail = (kind: LinkSpec["kind"], a: LinkedServer, b: LinkedServer): LinkSpec[] => {
    const theirs = new Set(b.npus.flatMap((n) => n.dies.map((d) => d.deviceId)));
    return a.npus
      .flatMap((n) => n.dies.map((d) => d.deviceId))
      .filter((deviceId) => theirs.has(deviceId))
      .map((deviceId) => ({ kind, source: { serverId: a.serverId, deviceId }, target: { serverId: b.serverId, deviceId } }));
  };
  for (const server of servers) yield* backupRailLinks([server]);
  if (mode === "super-pod") {
    const pods = superPodIds.map((id) => servers.filter((s) => s.superPodId === id));
    for (const pod of pods) {
      const last = pod.length > 2 ? pod.length : pod.length - 1;
      for (let i = 0; i < last; i++) yield* rail("hccs", pod[i]!, pod[(i + 1) % pod.length]!);
    }
    for (let p = 0; p + 1 < pods.length; p++) {
      const a = pods[p]!;
      const b = pods[p + 1]!;
      for (let slot = 0; slot < Math.min(a.length, b.length); slot++) yield* rail("roce", a[slot]!, b[slot]!);
    }
  } else {
    for (const server of servers) {
      const firsts = server.npus.map((n) => n.dies[0]!.deviceId);
      for (let i = 0; i < firsts.length; i++) {
        for (let j = i + 1; j < firsts.length; j++) {
          yield { kind: "hccs", source: { serverId: server.serverId, deviceId: firsts[i]! }, target: { serverId: server.serverId, deviceId: firsts[j]! } };
        }
      }
    }
    for (let i = 0; i + 1 < servers.length; i++) yield* rail("roce", servers[i]!, servers[i + 1]!);
  }
}

/** A valid "1.x" table's super pods: their ids in order, and each listed server's pod (a later pod's listing wins). */
export function superPodsOf(table: JsonObject): { superPodIds: string[]; podOf: Map<string, string> } {
  const podOf = new Map<string, string>();
  const superPodIds: string[] = [];
  for (const pod of Array.isArray(table.super_pod_list) ? table.super_pod_list : []) {
    if (!isJsonObject(pod)) continue;
    const id = text(pod.super_pod_id);
    if (id === null) continue;
    superPodIds.push(id);
    for (const entry of Array.isArray(pod.server_list) ? pod.server_list : []) {
      const serverId = isJsonObject(entry) ? text(entry.server_id) : null;
      if (serverId !== null) podOf.set(serverId, id);
    }
  }
  return { superPodIds, podOf };
}

/** One server_list entry of a valid "1.x" table, in a table of `mode` whose servers are in the pods `podOf` says. */
export function serverOf(raw: JsonObject, mode: ClusterMode, podOf: ReadonlyMap<string, string>): ServerSpec {
  const serverId = text(raw.server_id)!;
  const devices = (Array.isArray(raw.device) ? raw.device : []).filter(isJsonObject).map((d: JsonObject) => ({
    deviceId: int(d.device_id) ?? 0,
    dieIndex: 0 as 0 | 1,
    superDeviceId: int(d.super_device_id),
    deviceIp: text(d.device_ip),
    devicePort: int(d.device_port),
    backupDeviceIp: text(d.backup_device_ip),
    backupDevicePort: int(d.backup_device_port),
    hostPort: int(d.host_port),
  }));
  const model: ServerModel = mode === "super-pod" || devices.some((d) => d.deviceId > 7) ? "Atlas 800T A3" : "Atlas 800T A2";
  for (const die of devices) die.dieIndex = model === "Atlas 800T A3" ? ((die.deviceId % 2) as 0 | 1) : 0;
  return { serverId, hostIp: text(raw.host_ip), model, superPodId: mode === "super-pod" ? (podOf.get(serverId) ?? null) : null, npus: npusOf(devices, model) };
}

/** Reads a rank table's text ("1.0", "1.2" or "2.0") into an inventory; null inventory when the table has errors or is not a table. */
export function inventoryFromRankTable(source: string): { inventory: Inventory | null; issues: Issue[] } {
  const document = parseRankTable(source);
  const report = validateRankTable(document);
  // `valid` counts every error, the listed ones and any the report's cap left out (lib/report-limits.ts).
  const value = document.value;
  if (report.valid && isJsonObject(value) && report.layout === A5_VERSION) return { inventory: inventoryFromA5Table(value), issues: report.issues };
  if (!report.valid || !isJsonObject(value) || !Array.isArray(value.server_list)) return { inventory: null, issues: report.issues };
  const mode: ClusterMode = report.mode;
  const { superPodIds, podOf } = superPodsOf(value);
  const servers = value.server_list.filter(isJsonObject).map((raw) => serverOf(raw, mode, podOf));
  return { inventory: { mode, superPodIds: mode === "super-pod" ? superPodIds : [], servers, links: [...impliedLinks(mode, superPodIds, servers)] }, issues: report.issues };
}

export interface FieldChange {
  field: string;
  from: string | number | null;
  to: string | number | null;
}

export interface InventoryDiff {
  superPods: { added: string[]; removed: string[] };
  servers: {
    added: string[];
    removed: string[];
    changed: { serverId: string; changes: FieldChange[] }[];
  };
  dies: {
    added: string[];
    removed: string[];
    changed: { id: string; changes: FieldChange[] }[];
  };
  links: { before: number; after: number };
  /** What the operator must look at before writing: identities that move rather than simply change. */
  conflicts: Conflict[];
  unchanged: boolean;
}

export type Conflict =
  | { kind: "device-ip-moved"; deviceIp: string; from: string; to: string }
  | { kind: "server-moved-pod"; serverId: string; from: string | null; to: string | null }
  | { kind: "mode-changed"; from: ClusterMode; to: ClusterMode };

const dieKey = (serverId: string, deviceId: number) => `${serverId}/d${deviceId}`;
const DIE_FIELDS = ["superDeviceId", "deviceIp", "devicePort", "backupDeviceIp", "backupDevicePort", "hostPort"] as const;

/** A "2.0" rank's levels in one line ("L0 rack0: eid1 eid2; L1 pod0: …"), to compare and to show; null for a 1.x die. */
function netLevelsText(levels: DieSpec["netLevels"]): string | null {
  if (levels === undefined || levels.length === 0) return null;
  return levels.map((level) => `L${level.netLayer} ${level.netInstanceId}: ${level.addresses.map((address) => `${address.addr}${address.planeId ? `@${address.planeId}` : ""}`).join(" ")}`).join("; ");
}

function diesOf(inventory: Inventory): Map<string, { serverId: string; die: DieSpec }> {
  const map = new Map<string, { serverId: string; die: DieSpec }>();
  for (const server of inventory.servers) {
    for (const npu of server.npus) for (const die of npu.dies) map.set(dieKey(server.serverId, die.deviceId), { serverId: server.serverId, die });
  }
  return map;
}

/** What writing `next` over `current` adds, changes and removes, and its conflicts. Pure and deterministic. */
export function diffInventory(current: Inventory, next: Inventory): InventoryDiff {
  const conflicts: Conflict[] = [];
  if (current.servers.length > 0 && current.mode !== next.mode) conflicts.push({ kind: "mode-changed", from: current.mode, to: next.mode });
  const podsBefore = new Set(current.superPodIds);
  const podsAfter = new Set(next.superPodIds);

  const before = new Map(current.servers.map((s) => [s.serverId, s]));
  const after = new Map(next.servers.map((s) => [s.serverId, s]));
  const servers: InventoryDiff["servers"] = { added: [], removed: [], changed: [] };
  for (const [id, server] of after) {
    const old = before.get(id);
    if (!old) {
      servers.added.push(id);
      continue;
    }
    const changes: FieldChange[] = [];
    if (old.hostIp !== server.hostIp) changes.push({ field: "hostIp", from: old.hostIp, to: server.hostIp });
    if (old.model !== server.model) changes.push({ field: "model", from: old.model, to: server.model });
    if (old.superPodId !== server.superPodId) {
      changes.push({ field: "superPodId", from: old.superPodId, to: server.superPodId });
      conflicts.push({ kind: "server-moved-pod", serverId: id, from: old.superPodId, to: server.superPodId });
    }
    if (changes.length) servers.changed.push({ serverId: id, changes });
  }
  for (const id of before.keys()) if (!after.has(id)) servers.removed.push(id);

  const diesBefore = diesOf(current);
  const diesAfter = diesOf(next);
  const dies: InventoryDiff["dies"] = { added: [], removed: [], changed: [] };
  for (const [key, { die }] of diesAfter) {
    const old = diesBefore.get(key)?.die;
    if (!old) {
      dies.added.push(key);
      continue;
    }
    const changes: FieldChange[] = DIE_FIELDS.filter((f) => old[f] !== die[f]).map((f) => ({ field: f, from: old[f], to: die[f] }));
    const [levelsBefore, levelsAfter] = [netLevelsText(old.netLevels), netLevelsText(die.netLevels)];
    if (levelsBefore !== levelsAfter) changes.push({ field: "netLevels", from: levelsBefore, to: levelsAfter });
    if (changes.length) dies.changed.push({ id: key, changes });
  }
  for (const key of diesBefore.keys()) if (!diesAfter.has(key)) dies.removed.push(key);

  // A device IP that stays in the cluster but now belongs to another die: HCCL would reach the wrong NIC.
  const ipBefore = new Map<string, string>();
  for (const [key, { die }] of diesBefore) if (die.deviceIp) ipBefore.set(die.deviceIp, key);
  for (const [key, { die }] of diesAfter) {
    const was = die.deviceIp ? ipBefore.get(die.deviceIp) : undefined;
    if (die.deviceIp && was !== undefined && was !== key) conflicts.push({ kind: "device-ip-moved", deviceIp: die.deviceIp, from: was, to: key });
  }

  const diff: InventoryDiff = {
    superPods: { added: next.superPodIds.filter((id) => !podsBefore.has(id)), removed: current.superPodIds.filter((id) => !podsAfter.has(id)) },
    servers,
    dies,
    links: { before: current.links.length, after: next.links.length },
    conflicts,
    unchanged: false,
  };
  diff.unchanged =
    diff.superPods.added.length + diff.superPods.removed.length + servers.added.length + servers.removed.length + servers.changed.length +
      dies.added.length + dies.removed.length + dies.changed.length === 0 && conflicts.length === 0;
  return diff;
}
