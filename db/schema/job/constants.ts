export { jobSources, jobStates, matchKinds, unmatchedReasons, type JobSource, type JobState } from "@/lib/jobs/model";

/** A job's rank table may be as large as a saved one (16,384 ranks ≈ 5 MB); same limit. */
export { rankTableBodyLimit as jobBodyLimit } from "../rank-table/constants";
/** Logs posted for a diagnosis: a whole job's plogs, compressed or not (issue 14: "several MB to a few hundred MB"). */
export const diagnosisBodyLimit = 512 * 1024 * 1024;
export const jobNameMaxLength = 253;
export const namespaceMaxLength = 63;
