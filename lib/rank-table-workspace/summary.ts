import { countIssues, type ValidationReport } from "@/lib/rank-table";

export interface ReportSummary {
  valid: boolean;
  errors: number;
  warnings: number;
  infos: number;
  version: string | null;
  mode: ValidationReport["mode"];
  /** Present for the legacy template, "2.0" and the formats that are not HCCL rank tables. */
  layout?: ValidationReport["layout"];
  stats: ValidationReport["stats"];
}

/** The short form of a validation report that is stored with each revision and shown in lists. */
export function summarizeReport(report: ValidationReport): ReportSummary {
  const { error: errors, warning: warnings, info: infos } = countIssues(report);
  const summary: ReportSummary = { valid: report.valid, errors, warnings, infos, version: report.version, mode: report.mode, stats: report.stats };
  if (report.layout !== undefined) summary.layout = report.layout;
  return summary;
}
