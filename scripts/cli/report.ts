/** Text output of validation reports: one compiler-style line per issue and a summary line per file. */
import { countIssues, type Issue, type Lang, type Severity, type ValidationReport } from "../../lib/rank-table";

const COLORS: Record<Severity, string> = { error: "\u001b[31m", warning: "\u001b[33m", info: "\u001b[36m" };
const BOLD = "\u001b[1m";
const RESET = "\u001b[0m";

/** `file:line:col: severity CODE message` (severity words stay English in every language, for parsers). */
export function formatIssue(file: string, issue: Issue, color: boolean): string {
  const place = issue.line === undefined ? file : `${file}:${issue.line}:${issue.column}`;
  const severity = color ? `${COLORS[issue.severity]}${issue.severity}${RESET}` : issue.severity;
  const code = color ? `${BOLD}${issue.code}${RESET}` : issue.code;
  return `${place}: ${severity} ${code} ${issue.message}`;
}

/** `… 2,999,900 more issues not listed: RT004 ×2,999,900` when the report was capped (lib/report-limits.ts). */
export function formatOmitted(file: string, report: ValidationReport, lang: Lang): string | undefined {
  const omitted = report.omitted;
  if (!omitted) return undefined;
  const codes = Object.entries(omitted.byCode).map(([code, count]) => `${code} ×${count}`).join(", ");
  return lang === "zh" ? `${file}: 另有 ${omitted.count} 条问题未列出: ${codes}` : `${file}: ${plural(omitted.count, "more issue", "more issues")} not listed: ${codes}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `file: invalid: 2 errors, 1 warning, 0 info; version 1.2, super-pod, 2 super pods, 4 servers, 16 devices` */
export function formatSummary(file: string, report: ValidationReport, lang: Lang): string {
  const counts = countIssues(report);
  const { superPods, servers, devices } = report.stats;
  const declared = report.version ?? "-";
  // The legacy flavours and the formats that are not HCCL's are named beside the (absent or borrowed) version.
  const version = report.layout === undefined || report.layout === report.version ? declared : `${declared} (${report.layout})`;
  if (lang === "zh") {
    const mode = report.mode === "super-pod" ? "超节点模式" : "AI Server 模式";
    return `${file}: ${report.valid ? "有效" : "无效"}: ${counts.error} 个错误, ${counts.warning} 个警告, ${counts.info} 条提示; `
      + `version ${version}, ${mode}, ${superPods} 个超节点, ${servers} 台 Server, ${devices} 个 Device`;
  }
  return `${file}: ${report.valid ? "valid" : "invalid"}: ${plural(counts.error, "error", "errors")}, `
    + `${plural(counts.warning, "warning", "warnings")}, ${plural(counts.info, "info", "info")}; `
    + `version ${version}, ${report.mode}, ${plural(superPods, "super pod", "super pods")}, `
    + `${plural(servers, "server", "servers")}, ${plural(devices, "device", "devices")}`;
}

/** The closing line when several files were checked. */
export function formatTotals(files: number, invalid: number, unreadable: number, lang: Lang): string {
  const valid = files - invalid - unreadable;
  if (lang === "zh") return `共 ${files} 个文件: ${valid} 个有效, ${invalid} 个无效${unreadable ? `, ${unreadable} 个无法读取` : ""}`;
  return `${plural(files, "file", "files")}: ${valid} valid, ${invalid} invalid${unreadable ? `, ${unreadable} unreadable` : ""}`;
}
