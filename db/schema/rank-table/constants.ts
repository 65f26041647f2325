/**
 * The largest rank table a save (POST /rank-tables, PUT /rank-tables/{id}) or a check (POST /rank-tables/validate)
 * takes, as sent: 256 MiB. A SuperCluster's "2.0" table is large (`npm run bench -- editor`: 737 bytes a rank as
 * compact JSON, 92 MiB at 131,072 ranks and 108 MiB as a save body, whose "text" escapes its quotes; 1,656 bytes a
 * rank as the canonical two-space text that is stored). The body streams to the handler (these routes skip
 * proxy.ts), is read into one buffer of its declared size and handed to the rank-table worker, which decodes,
 * parses, validates and canonicalises it once (server/rank-table-worker.ts); the worker's heap is bounded
 * (server/workers/worker-pool.ts), so the server stays under 2 GB (issue 21). A 524,288-rank table does not fit:
 * about 430 MiB as a body, and its canonical text is longer than a JavaScript string can be (README, editor at scale).
 */
export const rankTableBodyLimit = 256 * 1024 * 1024;
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
