import { gunzipSync } from "node:zlib";
import { and, desc, eq, sql } from "drizzle-orm";
import { HOSTED_FROM_ROWS } from "@/lib/rank-table-workspace/table-host";
import { rankTableDetailTextLimit } from "../schema/rank-table/constants";
import type { Database } from "../client";
import { clusters, rankTableRevisions, rankTables } from "../schema";
import type { RankTableDetail, RankTableListItem, RevisionInfo } from "../schema/rank-table/validation";
import { linkedHardwareFit } from "./rank-table-fit";

/* Reading rank tables: the list, one table at a revision, its stored text, its revisions. Saves: ./rank-table-saves.ts. */

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
