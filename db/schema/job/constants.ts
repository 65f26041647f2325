export { jobSources, jobStates, matchKinds, unmatchedReasons, type JobSource, type JobState } from "@/lib/jobs/model";

/** A job's rank table may be as large as a saved one (16,384 ranks ≈ 5 MB); same limit. */
export { rankTableBodyLimit as jobBodyLimit } from "../rank-table/constants";
/**
 * Logs posted for a diagnosis. Every request body passes proxy.ts, which Next.js buffers up to its cap (32 MiB,
 * `maxBodyBytes`), so that is the bound here too: plogs compress about tenfold, so a `.tar.gz` of a few hundred MB
 * of logs fits; larger sets go through `rankscope diagnose --job`, which streams them from disk.
 */
export const diagnosisBodyLimit = 32 * 1024 * 1024;
export const jobNameMaxLength = 253;
export const namespaceMaxLength = 63;
