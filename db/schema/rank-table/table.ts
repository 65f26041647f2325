import { sql } from "drizzle-orm";
import { bigint, bigserial, check, customType, index, integer, jsonb, pgTable, serial, text, timestamp, unique } from "drizzle-orm/pg-core";
import { clusters } from "../cluster/table";
import type { RevisionSummary } from "./validation";

/**
 * A named rank table. `revision` is the number of its newest saved revision: a save names the revision it started
 * from and only succeeds while this is still that number (UPDATE … WHERE revision = expected), so of two saves from
 * the same revision exactly one wins and the other gets 409.
 */
export const rankTables = pgTable(
  "rank_tables",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** The inventory cluster the table is for, if any; the table stays when the cluster goes. */
    clusterId: integer("cluster_id").references(() => clusters.id, { onDelete: "set null" }),
    revision: integer("revision").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("rank_tables_name_not_blank", sql`length(trim(${t.name})) > 0`),
    check("rank_tables_revision_positive", sql`${t.revision} >= 1`),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/** Every saved revision of a rank table, kept forever (restoring an old one adds a new revision). */
export const rankTableRevisions = pgTable(
  "rank_table_revisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    rankTableId: integer("rank_table_id")
      .notNull()
      .references(() => rankTables.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    /** The table in canonical form (writeRankTable); null when it is stored compressed (`textGzip`). */
    text: text("text"),
    /**
     * The canonical text gzipped, for a revision saved as a stream (PUT /rank-tables/{id}/text): a 524,288-rank "2.0"
     * table's text (about 830 MiB) is longer than a JavaScript string can be, so it is written and stored in parts
     * (issue 21). `textBytes` is its length decoded, known without decompressing it.
     */
    textGzip: bytea("text_gzip"),
    textBytes: bigint("text_bytes", { mode: "number" }),
    comment: text("comment").notNull().default(""),
    /** user | token | system */
    authorType: text("author_type").notNull(),
    authorId: text("author_id"),
    authorName: text("author_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Validation summary of `text` at save time: valid, counts per severity, version, mode, stats. */
    summary: jsonb("summary").$type<RevisionSummary>().notNull(),
  },
  (t) => [
    check("rank_table_revisions_text_stored_once", sql`(${t.text} is null) <> (${t.textGzip} is null) and (${t.textGzip} is null) = (${t.textBytes} is null)`),
    unique("rank_table_revisions_table_revision").on(t.rankTableId, t.revision), index("rank_table_revisions_table_idx").on(t.rankTableId)],
);
