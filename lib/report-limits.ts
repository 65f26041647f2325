/**
 * Bounded output for every parser that reports findings (rank-table validation, device-info warnings, CSV import
 * problems, hccn.conf files): a hostile or broken input can produce one finding per element (3 million zeros in a
 * `server_list` gave 3 million RT004s, a 480 MB answer). A report lists at most `perCode` findings of one code and
 * `total` in all; the rest are counted per code, so the reader still learns how many there were and of what kind.
 */
export interface ReportLimits {
  /** Most findings listed in one report. */
  total: number;
  /** Most findings of one code listed in one report, so one flood cannot hide every other kind. */
  perCode: number;
}

export const REPORT_LIMITS: Readonly<ReportLimits> = { total: 1000, perCode: 100 };

/** Longest quoted value (a field's text) in a finding's message; longer values are cut with an ellipsis. */
export const MAX_QUOTED_LENGTH = 120;

/** What a capped report did not list: how many findings in all and per code. */
export interface OmittedFindings {
  count: number;
  byCode: Record<string, number>;
}

export class FindingCap {
  private listedCount = 0;
  private readonly listedByCode = new Map<string, number>();
  private omittedCount = 0;
  private readonly omittedByCode = new Map<string, number>();

  constructor(private readonly limits: Readonly<ReportLimits> = REPORT_LIMITS) {}

  /** True when a finding of `code` may still be listed (and counts it as listed); false counts it as omitted. */
  admit(code: string): boolean {
    const ofCode = this.listedByCode.get(code) ?? 0;
    if (this.listedCount >= this.limits.total || ofCode >= this.limits.perCode) {
      this.omittedCount++;
      this.omittedByCode.set(code, (this.omittedByCode.get(code) ?? 0) + 1);
      return false;
    }
    this.listedCount++;
    this.listedByCode.set(code, ofCode + 1);
    return true;
  }

  /** Counts as omitted what another cap left out (see Findings.append). */
  omitAll(byCode: Readonly<Record<string, number>>): void {
    for (const [code, count] of Object.entries(byCode)) {
      this.omittedCount += count;
      this.omittedByCode.set(code, (this.omittedByCode.get(code) ?? 0) + count);
    }
  }

  /** Pushes `item` onto `list` when its code may still be listed. */
  push<T>(list: T[], item: T, code: string): void {
    if (this.admit(code)) list.push(item);
  }

  /** Undefined when nothing was left out. */
  omitted(): OmittedFindings | undefined {
    if (this.omittedCount === 0) return undefined;
    return { count: this.omittedCount, byCode: Object.fromEntries([...this.omittedByCode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
  }
}

/** The sum of two omitted counts (a parser's and its caller's), undefined when both are. */
export function mergeOmitted(a: OmittedFindings | undefined, b: OmittedFindings | undefined): OmittedFindings | undefined {
  if (!a || !b) return a ?? b;
  const byCode = { ...a.byCode };
  for (const [code, count] of Object.entries(b.byCode)) byCode[code] = (byCode[code] ?? 0) + count;
  return { count: a.count + b.count, byCode };
}

/** A value quoted in a message, cut to MAX_QUOTED_LENGTH code points so a megabyte field is not echoed back. */
export function quoted(value: string, max = MAX_QUOTED_LENGTH): string {
  if (value.length <= max) return value;
  const cut = Array.from(value.slice(0, max + 1)).slice(0, max - 1).join("");
  return `${cut}… (${value.length} characters)`;
}
