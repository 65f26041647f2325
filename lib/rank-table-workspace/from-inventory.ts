/**
 * "Build from inventory": a rank table for a chosen part of a cluster (all of it, some super pods, some servers),
 * in the version asked for, with an optional port plan. The dies come from the inventory as recorded
 * (rankTableFromInventory); ports are laid out by the engine's assignPorts and, in "1.2", backups paired by
 * pairBackups, so what comes out follows the same rules as the engine's own generators.
 */
import type { ClusterSpec } from "@/lib/inventory/model";
import { assignPorts, pairBackups, type JsonValue } from "@/lib/rank-table";
import { a5TableFromInventory, isA5Inventory, rankTableFromInventory } from "@/lib/topology/export";

export interface InventorySelection {
  /** Super pods to include (all when both lists are empty). */
  superPods?: string[] | undefined;
  /** Servers to include, in addition to those of the chosen super pods. */
  servers?: string[] | undefined;
  version: "1.0" | "1.2";
  /** Lay out host_port / device_port / backup_device_port from this port (see assignPorts). */
  basePort?: number | undefined;
  /** "1.2": pair the two dies of each NPU as each other's backup NIC. Default true. */
  pairBackups?: boolean | undefined;
}

export interface InventoryOutline {
  superPods: { id: string; servers: string[] }[];
  /** Servers in no super pod (AI Server mode clusters). */
  servers: string[];
}

export function inventoryOutline(spec: Pick<ClusterSpec, "superPodIds" | "servers">): InventoryOutline {
  return {
    superPods: spec.superPodIds.map((id) => ({ id, servers: spec.servers.filter((server) => server.superPodId === id).map((server) => server.serverId) })),
    servers: spec.servers.filter((server) => server.superPodId === null).map((server) => server.serverId),
  };
}

export function tableFromInventory(spec: Pick<ClusterSpec, "superPodIds" | "servers">, selection: InventorySelection): JsonValue {
  const pods = new Set(selection.superPods ?? []);
  const servers = new Set(selection.servers ?? []);
  const everything = pods.size === 0 && servers.size === 0;
  const chosen = spec.servers.filter((server) => everything || servers.has(server.serverId) || (server.superPodId !== null && pods.has(server.superPodId)));
  if (chosen.length === 0) throw new RangeError("the selection has no servers");
  // Atlas 950 servers read only "2.0" (HCCL rejects 1.x there, EI0014): their levels and ports are as recorded.
  if (isA5Inventory(chosen)) return a5TableFromInventory(chosen) as unknown as JsonValue;
  const superPodIds = spec.superPodIds.filter((id) => chosen.some((server) => server.superPodId === id));
  const superPodMode = selection.version === "1.2";
  let table = rankTableFromInventory({ mode: superPodMode ? "super-pod" : "ai-server", superPodIds, servers: chosen }) as unknown as JsonValue;
  if (selection.basePort !== undefined) table = assignPorts(table, { basePort: selection.basePort }).table;
  if (selection.pairBackups !== false || !superPodMode) table = pairBackups(table).table;
  return table;
}
