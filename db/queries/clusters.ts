import { eq } from "drizzle-orm";
import { DomainError } from "@/lib/errors";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import type { Database } from "../client";
import { clusters } from "../schema";
import type { Transaction } from "./inventory";

/**
 * The one cluster lookup: a cluster by numeric id or by slug, with the inventory revision its derived views (topology
 * index, faults' target index) are cached under.
 */
const header = {
  id: clusters.id,
  slug: clusters.slug,
  name: clusters.name,
  mode: clusters.mode,
  inventoryRevision: clusters.inventoryRevision,
};

/**
 * A cluster by id ("12") or slug; null when there is none. `forUpdate` (in a transaction) takes its row lock, which
 * every writer of the cluster's inventory takes.
 */
export async function findCluster(db: Database | Transaction, idOrSlug: string, { forUpdate = false } = {}): Promise<ClusterHeader | null> {
  const where = /^\d{1,9}$/.test(idOrSlug) ? eq(clusters.id, Number(idOrSlug)) : eq(clusters.slug, idOrSlug);
  const query = db.select(header).from(clusters).where(where).limit(1);
  const [row] = forUpdate ? await query.for("update") : await query;
  return row ?? null;
}

/** `findCluster`, or a not_found DomainError naming what was asked for. */
export async function getClusterOrThrow(db: Database, idOrSlug: string): Promise<ClusterHeader> {
  const cluster = await findCluster(db, idOrSlug);
  if (!cluster) throw new DomainError("not_found", `no cluster ${JSON.stringify(idOrSlug)}`);
  return cluster;
}

/** The first cluster (by id), for pages opened without `?cluster=`. */
export async function firstCluster(db: Database): Promise<ClusterHeader | null> {
  const [row] = await db.select(header).from(clusters).orderBy(clusters.id).limit(1);
  return row ?? null;
}
