import { eq, sql } from "drizzle-orm";
import { DomainError } from "@/lib/errors";
import type { ClusterSpec } from "@/lib/inventory/model";
import type { Database } from "../client";
import { clusters } from "../schema";
import { recordAudit, type AuditActor } from "./audit";
import { clearInventory } from "./cluster-delete";
import { insertInventory } from "./inventory";
import { storeInventorySnapshot } from "./inventory-snapshot";

/** The inventory changed since the operator's preview: they must look again before writing. */
export class InventoryRevisionConflictError extends DomainError {
  constructor(readonly current: number) {
    super("conflict", `the inventory changed since the preview (now at revision ${current}): preview again`, { details: { revision: current } });
    this.name = "InventoryRevisionConflictError";
  }
}

/**
 * Replaces a cluster's whole inventory in one transaction, if it is still at `expectedRevision` (the revision the
 * preview was made against), and bumps the revision so every cached topology view is dropped. Returns the new one.
 */
export async function replaceInventory(
  db: Database,
  clusterId: number,
  inventory: Pick<ClusterSpec, "mode" | "superPodIds" | "servers" | "links">,
  expectedRevision: number,
  actor: AuditActor,
  summary: Record<string, unknown>,
): Promise<number> {
  return db.transaction(async (tx) => {
    const locked = await tx.execute<{ inventory_revision: number }>(
      sql`select inventory_revision from clusters where id = ${clusterId} for update`,
    );
    const current = locked.rows[0]?.inventory_revision;
    if (current === undefined) throw new Error(`no cluster ${clusterId}`);
    if (current !== expectedRevision) throw new InventoryRevisionConflictError(current);
    await clearInventory(tx, clusterId);
    await insertInventory(tx, clusterId, inventory);
    const [updated] = await tx
      .update(clusters)
      .set({ mode: inventory.mode, inventoryRevision: sql`${clusters.inventoryRevision} + 1`, updatedAt: new Date() })
      .where(eq(clusters.id, clusterId))
      .returning({ revision: clusters.inventoryRevision });
    await storeInventorySnapshot(tx, clusterId);
    await recordAudit(tx, {
      actor,
      action: "cluster.inventory_replace",
      target: { type: "cluster", id: clusterId },
      details: { fromRevision: current, toRevision: updated!.revision, ...summary },
    });
    return updated!.revision;
  });
}
