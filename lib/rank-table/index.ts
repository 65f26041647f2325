/**
 * Rankscope's rank-table engine: parse, validate, write, repair and generate HCCL rank tables (versions "1.0", "1.2"
 * and "2.0"; the legacy template is checked and converted to "1.0", look-alike formats are named). Pure TypeScript without Node-only or React imports: it runs in the browser (also in a Web Worker), in
 * route handlers and in the CLI.
 *
 *   const report = validateRankTable(text, { lang: "zh" });   // the spec's report, with line/column per issue
 *   const document = parseRankTable(text);                    // value + positions of any JSON Pointer
 *   const canonical = writeRankTable(document.value!);         // canonical export
 *   const { table, changes } = renumberRanks(document.value!); // each repair returns a new table and its changes
 */
export type {
  Issue,
  JsonObject,
  JsonValue,
  Lang,
  RankTable,
  RankTableDevice,
  RankTableInput,
  RankTableServer,
  RankTableSuperPod,
  RuleCode,
  Severity,
  TableLayout,
  TableMode,
  ValidationReport,
} from "./model";
export { isJsonObject } from "./model";
export { parseRankTable, RankTableDocument, type TextPosition } from "./parse";
export type { SyntaxProblem, SyntaxReason } from "./json-scanner";
export { validateRankTable, type ValidateOptions } from "./validate";
export { countIssues, RULE_CODES, RULE_SEVERITY } from "./findings";
export { formatMessage, MESSAGE_IDS, type LocalizedText, type MessageId } from "./messages";
export { writeRankTable } from "./write";
export {
  assignPorts,
  cloneJson,
  pairBackups,
  planPorts,
  recomputeServerCount,
  renumberRanks,
  type Change,
  type PortPlan,
  type RepairResult,
} from "./repair";
export { convertLegacyRepair, convertLegacyTable, isLegacyLayout, type LegacyConversion } from "./legacy";
export {
  generateFromHccn,
  generateFromTemplate,
  parseHccnConf,
  TEMPLATE_DEFAULTS,
  type HccnOptions,
  type HccnServer,
  type RankTableTemplate,
} from "./generate";
export { generateA5Table, A5_TEMPLATE_DEFAULTS, type A5Template } from "./generate-a5";
export type { A5Address, A5Level, A5Rank, A5RankTable } from "./a5-model";
export { compilePattern, PatternError } from "./pattern";
export { childPointer, escapePointerSegment, splitPointer } from "./pointer";
export { A5_REPAIRS, a5Numbers, a5RankCount, a5RenumberRanks, isA5Table, type A5RepairKey } from "./repair-a5";
