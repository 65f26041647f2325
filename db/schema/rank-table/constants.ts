/**
 * The largest rank table a save (POST /rank-tables, PUT /rank-tables/{id}) or a check (POST /rank-tables/validate)
 * takes, as sent: 128 MiB. A SuperCluster's "2.0" table is large (737 bytes a rank as compact JSON, 1,656 as the
 * canonical two-space text that is stored): a 131,072-rank one is a 108 MiB save body (its quotes escaped), so it
 * fits with room. The body streams to the handler (these routes skip proxy.ts), is read into one buffer of its
 * declared size and handed to the rank-table worker, which decodes, parses, validates and canonicalises it once
 * (server/rank-table-worker.ts) in a heap of 768 MB (server/workers/worker-pool.ts), so the server stays under 2 GB
 * (issue 21). That heap sets the limit: a 135 MiB body (163,840 ranks) was saved, a 163 MiB one (196,608) ran out of
 * it (413 too_complex after the upload and seconds of CPU), so the limit stays below what was measured to fit.
 * A 524,288-rank table (434 MiB as a body; its canonical text longer than a JavaScript string can be) is saved as
 * its raw text through the streamed route instead (`rankTableTextLimit`; README, "Saving a large table").
 */
export const rankTableBodyLimit = 128 * 1024 * 1024;
/**
 * The largest table a streamed save (PUT /rank-tables/{id}/text: the raw text, read in parts in the worker and
 * stored gzipped) takes: 1 GiB, above a 524,288-rank "2.0" table's canonical text (about 830 MiB).
 */
export const rankTableTextLimit = 1024 * 1024 * 1024;
/**
 * A revision stored compressed is answered inside the JSON detail (GET /rank-tables/{id}, the editor's page) only up
 * to this length decoded; longer, its `text` is left out (`largeText`) and GET /rank-tables/{id}/text streams it.
 */
export const rankTableDetailTextLimit = 256 * 1024 * 1024;
/**
 * A table read into an inventory (PUT /clusters/{id}/inventory and its preview) and a job's table (db/schema/job):
 * one SuperPoD's table (16,384 "1.0" ranks ≈ 5 MB); a SuperCluster is imported table by table (`rankscope cluster
 * add --from DIR`). Kept at 32 MiB: these bodies are worked on whole, the jobs' on the request thread.
 */
export const inventoryBodyLimit = 32 * 1024 * 1024;
export const rankTableNameMaxLength = 200;
export const revisionCommentMaxLength = 2000;
export const exportFormats = ["json", "configmap"] as const;
export type ExportFormat = (typeof exportFormats)[number];
