/** Rank table bodies are large: a 16,384-rank table is about 5 MB, so the API accepts up to 32 MB. */
export const rankTableBodyLimit = 32 * 1024 * 1024;
export const rankTableNameMaxLength = 200;
export const revisionCommentMaxLength = 2000;
export const exportFormats = ["json", "configmap"] as const;
export type ExportFormat = (typeof exportFormats)[number];
