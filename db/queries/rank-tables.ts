import { gunzipSync } from "node:zlib";
import { and, desc, eq, sql } from "drizzle-orm";
import { conflict, invalid, notFound } from "@/lib/errors";
import { canonicalize, type CanonicalTable } from "@/lib/rank-table-workspace/canonical";
import type { ReportSummary } from "@/lib/rank-table-workspace/summary";
import { HOSTED_FROM_ROWS } from "@/lib/rank-table-workspace/table-host";
import { rankTableDetailTextLimit } from "../schema/rank-table/constants";
import type { Database } from "../client";
import { clusters, rankTableRevisions, rankTables } from "../schema";
import type { RankTableCreate, RankTableDetail, RankTableListItem, RankTableMetadata, RankTableUpdate, RevisionInfo } from "../schema/rank-table/validation";
import { recordAudit, type AuditActor } from "./audit";
import { linkedHardwareFit } from "./rank-table-fit";

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

const listColumns = {
  id: rankTables.id,
  name: rankTables.name,
  clusterId: rankTables.clusterId,
  clusterName: clusters.name,
  revision: rankTables.revision,
  createdAt: rankTables.createdAt,
  updatedAt: rankTables.updatedAt,
  updatedBy: rankTableRevisions.authorName,
  summary: rankTableRevisions.summary,
  comment: rankTableRevisions.comment,
};

type ListRow = Awaited<ReturnType<typeof headQuery>>[number];

function toListItem(row: ListRow): RankTableListItem {
  return {
    id: row.id,
    name: row.name,
    clusterId: row.clusterId,
    clusterName: row.clusterName,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    summary: row.summary,
  };
}

function headQuery(db: Pick<Database, "select">) {
  return db
    .select(listColumns)
    .from(rankTables)
    .innerJoin(rankTableRevisions, and(eq(rankTableRevisions.rankTableId, rankTables.id), eq(rankTableRevisions.revision, rankTables.revision)))
    .leftJoin(clusters, eq(clusters.id, rankTables.clusterId));
}

export async function listRankTables(db: Database): Promise<RankTableListItem[]> {
  const rows = await headQuery(db).orderBy(desc(rankTables.updatedAt), desc(rankTables.id));
  return rows.map(toListItem);
}

/** A revision's compressed text when it is short enough to be decoded into one string (rankTableDetailTextLimit). */
export const decodableGzip = sql<Buffer | null>`case when ${rankTableRevisions.textBytes} <= ${rankTableDetailTextLimit} then ${rankTableRevisions.textGzip} end`;

/** A revision's text from its `text` or its `decodableGzip`; undefined when it is too long to be one string. */
export function revisionText(text: string | null, gzip: Buffer | null): string | undefined {
  return text ?? (gzip ? gunzipSync(gzip).toString("utf8") : undefined);
}

/**
 * Every revision of a table, oldest first, with its text as revisionText reads it (undefined when too long to be one
 * string): for checks that look at what was stored (the fault-injection suite), whichever way it was stored.
 */
export async function loadRevisionTexts(db: Database, id: number): Promise<{ revision: number; text: string | undefined }[]> {
  const rows = await db
    .select({ revision: rankTableRevisions.revision, text: rankTableRevisions.text, gzip: decodableGzip })
    .from(rankTableRevisions)
    .where(eq(rankTableRevisions.rankTableId, id))
    .orderBy(rankTableRevisions.revision);
  return rows.map((row) => ({ revision: row.revision, text: revisionText(row.text, row.gzip) }));
}

/**
 * The table at `revision` (default: the current one). `knownText` is that revision's text when the caller holds it
 * (a save that just wrote it): the text is then not read back, which for a 131,072-rank "2.0" table is 207 MiB;
 * null when the caller answers without it (a streamed save, the editor's page of a large table: `largeText`). A revision stored compressed is decoded when it is no
 * longer than rankTableDetailTextLimit, else its text is left out (`largeText`; GET …/text streams it).
 */
export async function getRankTable(db: Database, id: number, revision?: number, knownText?: string | null): Promise<RankTableDetail | undefined> {
  const [head] = await headQuery(db).where(eq(rankTables.id, id));
  if (!head) return undefined;
  const read = knownText === undefined;
  const [row] = await db
    .select({
      text: read ? rankTableRevisions.text : sql<null>`null`,
      textGzip: read ? decodableGzip : sql<null>`null`,
      // A plain revision's length without reading its text (octet_length takes it from the TOAST header).
      textBytes: sql<number>`coalesce(${rankTableRevisions.textBytes}, octet_length(${rankTableRevisions.text}))`.mapWith(Number),
      comment: rankTableRevisions.comment,
      summary: rankTableRevisions.summary,
      authorName: rankTableRevisions.authorName,
      createdAt: rankTableRevisions.createdAt,
    })
    .from(rankTableRevisions)
    .where(and(eq(rankTableRevisions.rankTableId, id), eq(rankTableRevisions.revision, revision ?? head.revision)));
  if (!row) return undefined;
  const text = knownText ?? revisionText(row.text, row.textGzip);
  const content = text === undefined ? { text: "", largeText: { bytes: row.textBytes } } : { text };
  const item = toListItem(head);
  const shown = revision === undefined || revision === head.revision
    ? { ...item, ...content, comment: row.comment }
    : { ...item, revision, summary: row.summary, updatedBy: row.authorName, updatedAt: row.createdAt.toISOString(), ...content, comment: row.comment };
  return { ...shown, hardwareFit: await linkedHardwareFit(db, shown) };
}

/**
 * The current revision as the editor's page opens it: with its text when the page edits the table itself, without it
 * (`largeText`) when the editor's worker would keep the table anyway (HOSTED_FROM_ROWS dies or more, as a file that
 * large opens): the worker then reads GET …/text as it arrives, and the page does not carry up to 256 MiB of text in
 * its payload to be parsed on the main thread (a 131,072-rank "2.0" table: 207 MiB), or, past that, open empty.
 */
export async function getRankTableForEditor(db: Database, id: number): Promise<RankTableDetail | undefined> {
  const [head] = await headQuery(db).where(eq(rankTables.id, id));
  if (!head) return undefined;
  return getRankTable(db, id, undefined, head.summary.stats.devices >= HOSTED_FROM_ROWS ? null : undefined);
}

/**
 * The stored text of the current (or `revision`) revision for GET …/text: compressed (a streamed save) or plain.
 * Undefined when there is no such table or revision.
 */
export async function storedRankTableText(db: Database, id: number, revision?: number): Promise<{ revision: number; text: string | null; gzip: Buffer | null } | undefined> {
  const [row] = await db
    .select({ revision: rankTableRevisions.revision, text: rankTableRevisions.text, gzip: rankTableRevisions.textGzip })
    .from(rankTableRevisions)
    .innerJoin(rankTables, eq(rankTables.id, rankTableRevisions.rankTableId))
    .where(and(eq(rankTableRevisions.rankTableId, id), eq(rankTableRevisions.revision, revision ?? rankTables.revision)));
  return row;
}

export async function listRevisions(db: Database, id: number): Promise<RevisionInfo[] | undefined> {
  const [exists] = await db.select({ id: rankTables.id }).from(rankTables).where(eq(rankTables.id, id));
  if (!exists) return undefined;
  const rows = await db
    .select({
      revision: rankTableRevisions.revision,
      authorType: rankTableRevisions.authorType,
      authorId: rankTableRevisions.authorId,
      authorName: rankTableRevisions.authorName,
      createdAt: rankTableRevisions.createdAt,
      comment: rankTableRevisions.comment,
      summary: rankTableRevisions.summary,
    })
    .from(rankTableRevisions)
    .where(eq(rankTableRevisions.rankTableId, id))
    .orderBy(desc(rankTableRevisions.revision));
  return rows.map((row) => ({
    revision: row.revision,
    author: { type: row.authorType, id: row.authorId, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
    comment: row.comment,
    summary: row.summary,
  }));
}

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
