
/** Most events one POST /api/v1/fault-events takes. */
export const maxEventsPerRequest = 10_000;
/** Body limit for a batch of that many events (about 1 KiB each, raw payloads included). */
export const maxBatchBytes = 16 * 1024 * 1024;
/** A device-info ConfigMap is small; a few hundred KiB covers a 16-die node with every code. */
export const maxDeviceInfoBytes = 1024 * 1024;
/** Events dated further ahead than this are refused: a clock that wrong would distort every statistic. */
export const maxFutureSkewMs = 24 * 3600 * 1000;
/** The PostgreSQL NOTIFY channel fault changes are announced on (feeds the server-sent events). */
export const faultChannel = "rankscope_fault_events";

export { faultLevels, type FaultLevel } from "@/lib/faults/levels";
export { retentionModes } from "@/lib/faults/retention";
export { escalationRules, faultKinds, faultSources, hcclPhaseIds, rescheduleScopes, targetKinds } from "@/lib/faults/model";
