import { z } from "zod";
import type { HardwareFitFinding } from "@/lib/rank-table/hardware-fit";
import { storable } from "@/lib/text-safety";
import { exportFormats, rankTableNameMaxLength, revisionCommentMaxLength } from "./constants";

export const revisionSummarySchema = z.object({
  valid: z.boolean(),
  errors: z.number().int(),
  warnings: z.number().int(),
  infos: z.number().int(),
  version: z.string().nullable(),
  mode: z.enum(["super-pod", "ai-server"]),
  layout: z.enum(["legacy-mindspore", "legacy-tensorflow", "2.0", "llm-datadist", "mindie-global"]).optional(),
  stats: z.object({ superPods: z.number().int(), servers: z.number().int(), devices: z.number().int() }),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;

const name = storable(z.string().trim().min(1).max(rankTableNameMaxLength));
const comment = storable(z.string().max(revisionCommentMaxLength));

/** POST /api/v1/rank-tables */
export const rankTableCreateSchema = z.object({
  name,
  clusterId: z.number().int().positive().nullable().optional(),
  comment: comment.optional(),
  /** The table's text: JSON or JSON with comments; it is stored in canonical form. */
  text: z.string().min(1),
});
export type RankTableCreate = z.infer<typeof rankTableCreateSchema>;

/** PUT /api/v1/rank-tables/{id} (with If-Match: the revision the edit started from). */
export const rankTableUpdateSchema = z.object({
  name: name.optional(),
  clusterId: z.number().int().positive().nullable().optional(),
  comment: comment.optional(),
  text: z.string().min(1),
});
export type RankTableUpdate = z.infer<typeof rankTableUpdateSchema>;

/**
 * POST /api/v1/clusters/{id}/inventory/preview: the rank table to read an inventory from. Rank tables of 16,384 ranks
 * are about 4 MB of canonical JSON; the limit leaves room for comments and indentation.
 */
export const inventoryPreviewSchema = z.object({ text: z.string().min(1).max(32 * 1024 * 1024) });

/** PUT /api/v1/clusters/{id}/inventory: the table, and the inventory revision the operator previewed against (a change in between refuses the write: 409). */
export const inventoryImportSchema = inventoryPreviewSchema.extend({ expectedRevision: z.number().int().positive() });

/**
 * PATCH /api/v1/rank-tables/{id}: the table's name and linked cluster (null unlinks). They describe the table, not
 * its content, so changing them adds no revision and needs no If-Match.
 */
export const rankTableMetadataSchema = z
  .strictObject({
    name: name.optional(),
    clusterId: z.number().int().positive().nullable().optional(),
  })
  .refine((value) => value.name !== undefined || value.clusterId !== undefined, "nothing to change: send name or clusterId");
export type RankTableMetadata = z.infer<typeof rankTableMetadataSchema>;

/**
 * PUT /rank-tables/{id}/text's query (the body is the table itself): the fields a JSON save sends beside the text, so
 * a rename made in the editor is saved with it.
 */
export const rankTableTextSaveQuerySchema = z.object({ name: name.optional(), comment: comment.optional(), clusterId: z.coerce.number().int().positive().optional() });
/** POST /rank-tables/text's query: a new table from its text, as POST /rank-tables takes one from `{name, text, …}`. */
export const rankTableTextCreateQuerySchema = rankTableTextSaveQuerySchema.extend({ name });
/** GET /rank-tables/{id}/text's query. */
export const rankTableTextQuerySchema = z.object({ revision: z.coerce.number().int().positive().optional() });

export const exportQuerySchema = z.object({
  format: z.enum(exportFormats).default("json"),
  revision: z.coerce.number().int().positive().optional(),
  /** The job the ConfigMap is for (rings-config-<job>); default: derived from the table's name. */
  job: storable(z.string().max(200)).optional(),
  namespace: storable(z.string().max(63)).optional(),
});

export interface RevisionAuthor {
  type: string;
  id: string | null;
  name: string | null;
}

/** One saved revision, as the API lists it. */
export interface RevisionInfo {
  revision: number;
  author: RevisionAuthor;
  createdAt: string;
  comment: string;
  summary: RevisionSummary;
}

/** A rank table in lists. */
export interface RankTableListItem {
  id: number;
  name: string;
  clusterId: number | null;
  clusterName: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
  summary: RevisionSummary;
}

/** A rank table with the text of its current revision. */
export interface RankTableDetail extends RankTableListItem {
  /** Empty when `largeText` is set. */
  text: string;
  /**
   * Set when the revision's text is too long to answer as one string (rankTableDetailTextLimit): its length in bytes;
   * GET /rank-tables/{id}/text streams it.
   */
  largeText?: { bytes: number };
  comment: string;
  /** CL001: the layout does not suit the linked cluster's chips (null when it does, or no cluster is linked). */
  hardwareFit: HardwareFitFinding | null;
}
