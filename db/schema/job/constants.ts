export { jobSources, jobStates, matchKinds, unmatchedReasons, type JobSource, type JobState } from "@/lib/jobs/model";

/** A job's rank table: one SuperPoD's (16,384 ranks ≈ 5 MB), as an inventory's; the job routes read it on the request thread. */
export { inventoryBodyLimit as jobBodyLimit } from "../rank-table/constants";
/**
 * Logs posted for a diagnosis: a job's plogs are several MB to a few hundred MB. This route is left out of proxy.ts
 * (whose bodies Next.js buffers whole, up to 32 MiB), so the body streams through the diagnoser and memory stays
 * bounded whatever the size; the bound is the time it takes (about 2 s of CPU per 100 MB).
 */
export const diagnosisBodyLimit = 512 * 1024 * 1024;
/** What the archives and gzipped files of one upload may unpack to, in all: a gzip bomb stops here (413). */
export const diagnosisUnpackedLimit = 4 * 1024 * 1024 * 1024;
export const jobNameMaxLength = 253;
export const namespaceMaxLength = 63;
