import { and, eq, sql } from "drizzle-orm";
import { conflict, invalid, notFound } from "@/lib/errors";
import { canonicalize, type CanonicalTable } from "@/lib/rank-table-workspace/canonical";
import type { ReportSummary } from "@/lib/rank-table-workspace/summary";
import type { Database } from "../client";
import { clusters, rankTableRevisions, rankTables } from "../schema";
import type { RankTableCreate, RankTableDetail, RankTableMetadata, RankTableUpdate } from "../schema/rank-table/validation";
import { recordAudit, type AuditActor } from "./audit";
import { getRankTable } from "./rank-tables";

/* Saving rank tables: create, new revisions (one wins a race from the same revision), metadata, delete; each audited. */

const noRankTable = (id: number) => notFound(`there is no rank table ${id}`);

/** A revision saved as a stream (PUT /rank-tables/{id}/text): its canonical text gzipped, that text's length in bytes. */
export interface CompressedRevision {
  gzip: Uint8Array;
  textBytes: number;
  summary: ReportSummary;
}

/** What a save stores: the canonical text, or (streamed) the text compressed. */
export type StoredRevision = CanonicalTable | CompressedRevision;

function storedColumns(stored: StoredRevision) {
  return "text" in stored
    ? { text: stored.text, textGzip: null, textBytes: null, summary: stored.summary }
    : { text: null, textGzip: Buffer.from(stored.gzip.buffer, stored.gzip.byteOffset, stored.gzip.byteLength), textBytes: stored.textBytes, summary: stored.summary };
}

/** Inside the save's transaction: the conditional UPDATE matched no row. Turned into a revision_conflict outside it. */
class StaleRevision extends Error {}

/** 422 unknown_cluster unless the cluster exists (none named: nothing to check); a streamed save asks before its upload. */
export async function checkCluster(db: Pick<Database, "select">, clusterId: number | null | undefined): Promise<void> {
  if (clusterId === undefined || clusterId === null) return;
  const [found] = await db.select({ id: clusters.id }).from(clusters).where(eq(clusters.id, clusterId));
  if (!found) throw invalid(`there is no cluster ${clusterId}`, { code: "unknown_cluster" });
}

function author(actor: AuditActor) {
  return { authorType: actor.type, authorId: actor.id ?? null, authorName: actor.name ?? null };
}

/**
 * `canonical` is `input.text` canonicalised, when the caller did that already (off the request thread, for large
 * tables), or the text compressed by a streamed save (POST /rank-tables/text), which has no `input.text`.
 */
export async function createRankTable(
  db: Database,
  input: Omit<RankTableCreate, "text"> & { text?: string },
  actor: AuditActor,
  canonical: StoredRevision = canonicalize(input.text ?? ""),
): Promise<RankTableDetail> {
  const id = await db.transaction(async (tx) => {
    await checkCluster(tx, input.clusterId);
    const [created] = await tx.insert(rankTables).values({ name: input.name, clusterId: input.clusterId ?? null, revision: 1 }).returning({ id: rankTables.id });
    const tableId = created!.id;
    await tx.insert(rankTableRevisions).values({ rankTableId: tableId, revision: 1, ...storedColumns(canonical), comment: input.comment ?? "", ...author(actor) });
    await recordAudit(tx, {
      actor,
      action: "rank_table.create",
      target: { type: "rank_table", id: tableId },
      after: { name: input.name, clusterId: input.clusterId ?? null, revision: 1 },
      details: { summary: canonical.summary },
    });
    return tableId;
  });
  return (await getRankTable(db, id, 1, "text" in canonical ? canonical.text : null))!;
}

/**
 * Saves a new revision, if `expectedRevision` is still the newest one. The revision counter is bumped by one
 * conditional UPDATE (… WHERE revision = expected), which PostgreSQL re-checks after waiting for a concurrent
 * save's row lock: of two saves from one revision exactly one matches; the other finds no row and gets a conflict
 * that carries the current revision. `canonical` as for createRankTable.
 */
export async function updateRankTable(
  db: Database,
  id: number,
  expectedRevision: number,
  input: Omit<RankTableUpdate, "text"> & { text?: string },
  actor: AuditActor,
  canonical: StoredRevision = canonicalize(input.text ?? ""),
): Promise<RankTableDetail> {
  const saved = await db.transaction(async (tx) => {
    await checkCluster(tx, input.clusterId);
    const [before] = await tx.select({ name: rankTables.name, clusterId: rankTables.clusterId }).from(rankTables).where(eq(rankTables.id, id));
    const changes: { revision: ReturnType<typeof sql<number>>; updatedAt: ReturnType<typeof sql<Date>>; name?: string; clusterId?: number | null } = {
      revision: sql<number>`${rankTables.revision} + 1`,
      updatedAt: sql<Date>`now()`,
    };
    if (input.name !== undefined) changes.name = input.name;
    if (input.clusterId !== undefined) changes.clusterId = input.clusterId;
    const [updated] = await tx
      .update(rankTables)
      .set(changes)
      .where(and(eq(rankTables.id, id), eq(rankTables.revision, expectedRevision)))
      .returning({ revision: rankTables.revision, name: rankTables.name, clusterId: rankTables.clusterId });
    if (!updated) {
      if (!before) throw noRankTable(id);
      throw new StaleRevision();
    }
    await tx.insert(rankTableRevisions).values({ rankTableId: id, revision: updated.revision, ...storedColumns(canonical), comment: input.comment ?? "", ...author(actor) });
    await recordAudit(tx, {
      actor,
      action: "rank_table.update",
      target: { type: "rank_table", id },
      before: { name: before?.name, clusterId: before?.clusterId, revision: expectedRevision },
      after: { name: updated.name, clusterId: updated.clusterId, revision: updated.revision },
      details: { comment: input.comment ?? "", summary: canonical.summary },
    });
    return updated.revision;
  }).catch(async (error: unknown) => {
    if (error instanceof StaleRevision) throw await revisionConflict(db, id, expectedRevision);
    throw error;
  });
  // The revision this save wrote, even when another save has followed it already.
  return (await getRankTable(db, id, saved, "text" in canonical ? canonical.text : null))!;
}

/** The 409 of a save that started from `expectedRevision` when another is current: details.current is the table now. */
async function revisionConflict(db: Database, id: number, expectedRevision: number): Promise<Error> {
  const current = await getRankTable(db, id);
  if (!current) return noRankTable(id);
  return conflict(`the rank table was saved by someone else in between: revision ${current.revision} is current, not ${expectedRevision}`, {
    code: "revision_conflict",
    details: { expectedRevision, currentRevision: current.revision, current },
  });
}

/**
 * A streamed save's check before its body is read (PUT …/text): 404 or the 409 updateRankTable would give, so a
 * stale save of a large table is refused without its upload. The save itself checks again (another may come first).
 */
export async function assertCurrentRevision(db: Database, id: number, expectedRevision: number): Promise<void> {
  const [head] = await db.select({ revision: rankTables.revision }).from(rankTables).where(eq(rankTables.id, id));
  if (!head) throw noRankTable(id);
  if (head.revision !== expectedRevision) throw await revisionConflict(db, id, expectedRevision);
}

/**
 * Renames the table or links it to a cluster (null unlinks) without a new revision: the saved text is untouched,
 * so the revision number, and with it every open editor's If-Match, stays valid; `updatedAt` and the list's "last
 * saved" keep meaning the last content save. The change is in the audit log.
 */
export async function updateRankTableMetadata(db: Database, id: number, input: RankTableMetadata, actor: AuditActor): Promise<RankTableDetail> {
  await db.transaction(async (tx) => {
    await checkCluster(tx, input.clusterId);
    const [before] = await tx.select({ name: rankTables.name, clusterId: rankTables.clusterId }).from(rankTables).where(eq(rankTables.id, id)).for("update");
    if (!before) throw noRankTable(id);
    const after = { name: input.name ?? before.name, clusterId: input.clusterId === undefined ? before.clusterId : input.clusterId };
    if (after.name === before.name && after.clusterId === before.clusterId) return;
    await tx.update(rankTables).set(after).where(eq(rankTables.id, id));
    await recordAudit(tx, { actor, action: "rank_table.update_metadata", target: { type: "rank_table", id }, before, after });
  });
  const detail = await getRankTable(db, id);
  if (!detail) throw noRankTable(id);
  return detail;
}

export async function deleteRankTable(db: Database, id: number, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx.delete(rankTables).where(eq(rankTables.id, id)).returning({ name: rankTables.name, revision: rankTables.revision, clusterId: rankTables.clusterId });
    if (!deleted) return false;
    await recordAudit(tx, { actor, action: "rank_table.delete", target: { type: "rank_table", id }, before: { ...deleted } });
    return true;
  });
}
