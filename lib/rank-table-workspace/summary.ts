import { countIssues, type ValidationReport } from "@/lib/rank-table";

export interface ReportSummary {
  valid: boolean;
  errors: number;
  warnings: number;
  infos: number;
  version: string | null;
  mode: ValidationReport["mode"];
  stats: ValidationReport["stats"];
}

/** The short form of a validation report that is stored with each revision and shown in lists. */
export function summarizeReport(report: ValidationReport): ReportSummary {
  const { error: errors, warning: warnings, info: infos } = countIssues(report);
  return { valid: report.valid, errors, warnings, infos, version: report.version, mode: report.mode, stats: report.stats };
}
