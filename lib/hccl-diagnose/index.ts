/**
 * HCCL failure localisation: reads plog / framework logs of a failed job (pasted excerpts or whole files), finds
 * which rank each file speaks for and the HCCL errors in it, decides the phase and names the suspects with evidence.
 * Pure TypeScript (no Node imports): runs in route handlers, workers and the CLI. File-system readers live in
 * scripts/cli/diagnose-input.ts.
 *
 *   const report = diagnoseTexts([{ path: "node0/plog-123_1.log", text }], { rankTable });
 *   const diagnoser = new LogDiagnoser({ rankTable });  // streaming: never holds the logs
 *   diagnoser.addFile("node0/plog-123_1.log"); diagnoser.addChunk(chunk); …; diagnoser.finish();
 *   withLinkHistory(report, history);  // an error CQE's NICs (cqeNics(report)) and their link-down events
 */
export type * from "./model";
export { LogDiagnoser, diagnoseTexts } from "./diagnoser";
export { cqeNics, withLinkHistory } from "./link-history";
export { generateFailedJobLogs, type FailedJobScenario, type GeneratedFile, type GeneratedLogs } from "./fixtures";
