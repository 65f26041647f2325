/**
 * Rank table bodies are large: a 16,384-rank "1.0" table is about 5 MB, so the API accepts up to 32 MiB. Not more,
 * although a SuperCluster's "2.0" table is far larger (`npm run bench -- editor`: 1,656 bytes a rank as canonical
 * text, so 26 MiB at 16,384 ranks, 207 MiB at 131,072 and about 830 MiB at 524,288, past the longest string V8 can
 * hold; 737 bytes a rank without indent): the route reads, parses and validates the whole body in memory (several
 * times its size as objects), and the server is to stay under 2 GB (issue 21), so one such save would take all of it.
 * Tables past the limit (about 20,000 "2.0" ranks) are opened, validated, edited and exported in the browser, and the
 * editor says so before uploading (components/rank-tables/use-save.ts). Storing them would need a streamed upload
 * stored by parts, not a larger limit.
 */
export const rankTableBodyLimit = 32 * 1024 * 1024;
export const rankTableNameMaxLength = 200;
export const revisionCommentMaxLength = 2000;
export const exportFormats = ["json", "configmap"] as const;
export type ExportFormat = (typeof exportFormats)[number];
