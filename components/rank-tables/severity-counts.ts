import type { Issue, Severity } from "@/lib/rank-table";

export const severityFilters = ["all", "error", "warning", "info"] as const;
export type SeverityFilter = (typeof severityFilters)[number];

export function countBySeverity(issues: readonly Pick<Issue, "severity">[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const issue of issues) counts[issue.severity]++;
  return counts;
}
