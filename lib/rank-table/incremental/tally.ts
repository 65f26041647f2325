/**
 * The findings an incremental validator keeps between edits, and how they become the report `validateRankTable`
 * gives: counted per code as they are added and removed (so `valid` and `omitted` need no walk over all of them),
 * and listed, in the full validator's order, through the same cap (lib/report-limits.ts): the walk stops once the
 * cap's total is reached, so a report costs what it lists, not what the table holds.
 */
import { REPORT_LIMITS, type OmittedFindings, type ReportLimits } from "../../report-limits";
import { Findings, findingMessage, type Finding } from "../findings";
import type { Issue, Lang, RuleCode } from "../model";

/** Limits that admit everything: the checks write into these, and the cap is applied when the report is made. */
export const UNCAPPED: Readonly<ReportLimits> = { total: Number.POSITIVE_INFINITY, perCode: Number.POSITIVE_INFINITY };

/** A sink for checks run only to read a view again (their findings are already kept). */
export function scratchFindings(): Findings {
  return new Findings(UNCAPPED);
}

/** Takes the findings a check appended to `findings` since `start` (undefined when none: most units have none). */
export function takeSince(findings: Findings, start: number): Finding[] | undefined {
  return findings.list.length > start ? findings.list.splice(start) : undefined;
}

export class Tally {
  private readonly byCode = new Map<RuleCode, number>();
  errors = 0;

  add(list: readonly Finding[] | undefined, sign: 1 | -1 = 1): void {
    if (list === undefined) return;
    for (const finding of list) {
      this.byCode.set(finding.code, (this.byCode.get(finding.code) ?? 0) + sign);
      if (finding.severity === "error") this.errors += sign;
    }
  }

  remove(list: readonly Finding[] | undefined): void {
    this.add(list, -1);
  }

  count(code: RuleCode): number {
    return this.byCode.get(code) ?? 0;
  }

  codes(): IterableIterator<RuleCode> {
    return this.byCode.keys();
  }
}

/** Lists findings as the full validator's capped `Findings` would, given them in its order. */
export class ReportBuilder {
  readonly issues: Issue[] = [];
  private readonly listedByCode = new Map<RuleCode, number>();
  private readonly limits: Readonly<ReportLimits>;

  constructor(
    private readonly lang: Lang,
    limits: Readonly<ReportLimits> | undefined,
  ) {
    this.limits = limits ?? REPORT_LIMITS;
  }

  /** False once the cap's total is reached: nothing more can be listed, so the caller may stop walking. */
  get open(): boolean {
    return this.issues.length < this.limits.total;
  }

  addAll(list: readonly Finding[] | undefined): void {
    if (list === undefined) return;
    for (const finding of list) {
      if (!this.open) return;
      const listed = this.listedByCode.get(finding.code) ?? 0;
      if (listed >= this.limits.perCode) continue;
      this.listedByCode.set(finding.code, listed + 1);
      this.issues.push({ code: finding.code, severity: finding.severity, path: finding.path, message: findingMessage(finding, this.lang) });
    }
  }

  /** What the cap left out: every finding counted by the tally that was not listed. */
  omitted(tally: Tally): OmittedFindings | undefined {
    let count = 0;
    const byCode: Record<string, number> = {};
    const codes = [...tally.codes()].sort();
    for (const code of codes) {
      const left = tally.count(code) - (this.listedByCode.get(code) ?? 0);
      if (left > 0) {
        byCode[code] = left;
        count += left;
      }
    }
    return count === 0 ? undefined : { count, byCode };
  }
}
