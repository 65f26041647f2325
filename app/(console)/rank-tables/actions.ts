"use server";

import { z } from "zod";
import { appDatabase } from "@/db/client";
import { loadClusterInventory } from "@/db/queries/topology";
import { writeRankTable } from "@/lib/rank-table";
import { inventoryOutline, tableFromInventory, type InventoryOutline } from "@/lib/rank-table-workspace/from-inventory";
import { requireAction } from "@/server/auth/page";

const clusterId = z.number().int().positive();
const selectionSchema = z.object({
  clusterId,
  superPods: z.array(z.string().max(200)).max(10_000).optional(),
  servers: z.array(z.string().max(200)).max(200_000).optional(),
  version: z.enum(["1.0", "1.2"]),
  basePort: z.number().int().min(1).max(65535).optional(),
});

export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** The super pods and servers of a cluster, to choose what to build a table for. */
export async function inventoryOutlineAction(id: number): Promise<ActionResult<InventoryOutline>> {
  await requireAction("read");
  const spec = await loadClusterInventory(appDatabase().db, clusterId.parse(id));
  return { ok: true, value: inventoryOutline(spec) };
}

/** A rank table (canonical text) for the chosen part of a cluster's inventory. */
export async function buildFromInventoryAction(input: z.input<typeof selectionSchema>): Promise<ActionResult<string>> {
  await requireAction("read");
  const selection = selectionSchema.parse(input);
  const spec = await loadClusterInventory(appDatabase().db, selection.clusterId);
  try {
    return { ok: true, value: writeRankTable(tableFromInventory(spec, selection)) };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, error: error.message };
    throw error;
  }
}
