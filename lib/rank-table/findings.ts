/** Collects findings while the checks run; turned into the report's issues (in one language) at the end. */
import { FindingCap, type OmittedFindings, type ReportLimits } from "../report-limits";
import { formatMessage, type MessageId, type MessageParams } from "./messages";
import type { Lang, RuleCode, Severity, ValidationReport } from "./model";

/** The severity of every rule; RT002 is lowered to info for fields that real generators write. */
export const RULE_SEVERITY: Readonly<Record<RuleCode, Severity>> = {
  RT000: "error", RT001: "info", RT002: "warning", RT003: "error", RT004: "error", RT005: "warning", RT006: "error",
  RT010: "error", RT011: "warning", RT012: "error", RT013: "error", RT014: "info", RT015: "error", RT016: "error",
  RT017: "error",
  RT020: "error", RT021: "error", RT022: "error", RT023: "error", RT024: "warning", RT025: "error", RT026: "warning",
  RT030: "error", RT031: "error", RT032: "error", RT033: "error", RT034: "error", RT035: "error", RT036: "error",
  RT037: "error", RT038: "error", RT039: "warning",
  RT040: "error", RT041: "warning", RT042: "error", RT043: "error", RT044: "error", RT045: "error", RT046: "error",
  RT047: "error", RT048: "warning", RT049: "error",
  RT050: "error", RT051: "error", RT052: "error", RT053: "warning", RT054: "warning", RT055: "warning",
  RT060: "error", RT061: "error", RT062: "error", RT063: "error", RT064: "error", RT065: "error", RT066: "error",
  RT067: "warning",
  RT070: "error", RT071: "error", RT072: "error", RT073: "error", RT074: "error", RT075: "error", RT076: "error",
  RT077: "error", RT078: "error", RT079: "error",
  RT100: "error", RT101: "error", RT102: "error", RT103: "error", RT104: "error", RT105: "error", RT106: "error",
  RT107: "error", RT108: "warning", RT109: "error",
  RT110: "error", RT111: "error", RT112: "error", RT113: "warning", RT114: "error", RT115: "error", RT116: "error",
  RT117: "error", RT118: "error", RT119: "error",
  RT120: "error", RT121: "error", RT122: "error", RT123: "error", RT124: "error",
};

export const RULE_CODES = Object.keys(RULE_SEVERITY) as RuleCode[];

export interface Finding {
  code: RuleCode;
  severity: Severity;
  path: string;
  messageId: MessageId;
  params: MessageParams;
  /** A text offset that overrides the pointer's position (comments, syntax errors). */
  offset?: number;
}

/**
 * The findings of one report, capped (lib/report-limits.ts): past the cap a finding is only counted, so a table
 * with millions of broken elements costs a counter per element, not an object, a position and a message.
 */
export class Findings {
  readonly list: Finding[] = [];
  /** True when any finding, listed or not, is an error: the report's `valid` does not depend on the cap. */
  hasError = false;
  private readonly cap: FindingCap;

  constructor(limits?: Readonly<ReportLimits>) {
    this.cap = new FindingCap(limits);
  }

  /** Counts per code of the findings past the cap; undefined when every finding is listed. */
  omitted(): OmittedFindings | undefined {
    return this.cap.omitted();
  }

  /** Records a finding whose message id is the code itself. */
  add(code: RuleCode, path: string, params: MessageParams = {}): void {
    this.addMessage(code, code as MessageId, path, params);
  }

  /** Records a finding with a message variant (e.g. "RT012.a5") or a lowered severity. */
  addMessage(code: RuleCode, messageId: MessageId, path: string, params: MessageParams = {}, severity = RULE_SEVERITY[code]): void {
    if (this.admit(code, severity)) this.list.push({ code, severity, path, messageId, params });
  }

  addAtOffset(code: RuleCode, messageId: MessageId, offset: number, params: MessageParams): void {
    const severity = RULE_SEVERITY[code];
    if (this.admit(code, severity)) this.list.push({ code, severity, path: "", messageId, params, offset });
  }

  /**
   * The findings of a later stretch of the same run, collected under a cap of their own (a table's servers read as
   * they stream in, before the header they follow in the checks), as if they had been added here in their order.
   * Exact: a finding their own cap left out is left out here too, since this cap has listed at least as many of each
   * code (or its total) by then.
   */
  append(later: Findings): void {
    for (const finding of later.list) if (this.admit(finding.code, finding.severity)) this.list.push(finding);
    this.hasError ||= later.hasError;
    const omitted = later.omitted();
    if (omitted) this.cap.omitAll(omitted.byCode);
  }

  private admit(code: RuleCode, severity: Severity): boolean {
    if (severity === "error") this.hasError = true;
    return this.cap.admit(code);
  }
}

/** Issues of each severity in a report, those the cap left out included (counted by their code's severity). */
export function countIssues(report: Pick<ValidationReport, "issues" | "omitted">): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const issue of report.issues) counts[issue.severity]++;
  for (const [code, count] of Object.entries(report.omitted?.byCode ?? {})) counts[RULE_SEVERITY[code as RuleCode] ?? "error"] += count;
  return counts;
}

export function findingMessage(finding: Finding, lang: Lang): string {
  return formatMessage(finding.messageId, finding.params, lang);
}
