import type { DiagnosisReport, Suspect } from "../../../lib/hccl-diagnose";
import { LogDiagnoser } from "../../../lib/hccl-diagnose";
import { feedPath, type SkippedInput } from "../../../server/hccl-logs/sources";
import { choice, describeError, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import type { CliIo } from "../io";

type Lang = "en" | "zh";

const LABELS = {
  en: { suspects: "Suspects", none: "No suspect could be named.", ranks: "Ranks", next: "Next steps", read: "Read", confidence: "confidence" },
  zh: { suspects: "嫌疑点", none: "无法确定嫌疑点。", ranks: "Rank", next: "下一步", read: "读取", confidence: "置信度" },
} as const;

function where(suspect: Suspect, lang: Lang): string {
  const parts: string[] = [];
  if (suspect.rank !== undefined) parts.push(lang === "zh" ? `Rank ${suspect.rank}` : `rank ${suspect.rank}`);
  if (suspect.serverId) parts.push(suspect.serverId);
  if (suspect.hostIp) parts.push(`host ${suspect.hostIp}`);
  if (suspect.deviceId !== undefined) parts.push(`device ${suspect.deviceId}`);
  if (suspect.deviceIp) parts.push(suspect.deviceIp);
  if (suspect.port !== undefined) parts.push(`port ${suspect.port}`);
  if (suspect.peer) parts.push(`↔ ${[suspect.peer.rank === undefined ? undefined : `rank ${suspect.peer.rank}`, suspect.peer.deviceIp].filter(Boolean).join(" ")}`);
  return `${suspect.kind}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
}

/** The report for people: phase, summary, suspects with evidence, rank counts, next steps, what was read. */
export function formatDiagnosis(report: DiagnosisReport, lang: Lang, skipped: readonly SkippedInput[] = []): string {
  const labels = LABELS[lang];
  const lines = [report.summary[lang], ""];
  lines.push(`${labels.suspects}:`);
  if (report.suspects.length === 0) lines.push(`  ${labels.none}`);
  report.suspects.forEach((suspect, index) => {
    lines.push(`  ${index + 1}. ${where(suspect, lang)}  (${labels.confidence} ${suspect.confidence.toFixed(2)})`);
    lines.push(`     ${suspect.reason[lang]}`);
    for (const evidence of suspect.evidence) lines.push(`     ${evidence.file}:${evidence.line}: ${evidence.text.trim()}`);
  });
  const counts = new Map<string, number>();
  for (const rank of report.ranks) counts.set(rank.status, (counts.get(rank.status) ?? 0) + 1);
  lines.push("", `${labels.ranks}: ${report.ranks.length} (${[...counts].map(([status, count]) => `${count} ${status}`).join(", ")})`);
  lines.push("", `${labels.next}:`, ...report.nextSteps.map((step) => `  - ${step[lang]}`));
  const { files, lines: read, unknownLines, errorLines } = report.stats;
  lines.push("", `${labels.read}: ${files} files, ${read} lines (${unknownLines} unknown, ${errorLines} error)`);
  for (const skip of skipped) lines.push(`  skipped ${skip.path}: ${skip.reason}`);
  return `${lines.join("\n")}\n`;
}

async function feedStdin(diagnoser: LogDiagnoser, io: CliIo): Promise<boolean> {
  const text = await readInput(io, "-");
  if (text === undefined) return false;
  diagnoser.addFile("<stdin>");
  diagnoser.addChunk(text);
  return true;
}

export const diagnoseCommand: Command = {
  name: "diagnose",
  summary: "find where an HCCL failure started from a job's logs",
  help: `Usage: rankscope diagnose LOGS... [--rank-table FILE] [--format text|json] [--lang en|zh]

Reads the logs of a failed job (plog files from ~/ascend/log/{debug,run}/plog, a directory per node, .tar.gz
archives of them, launcher logs, or pasted text on standard input with "-"), finds which rank each file speaks
for and its HCCL errors, decides the phase (config, init, load, execute, port_in_use) and names the suspects:
in initialisation the ranks that never reached the root rank, in loading and execution the ranks that did NOT
time out, the NICs at both ends of an error CQE, ports in use, rank-table errors. Files are streamed, so
hundreds of MB are fine.

Options:
  --rank-table FILE   the job's rank table: the expected ranks and their servers, dies and IPs; it is also
                      validated (its errors are suspects in a config failure)
  --format text|json  text (default) for people; json: the report {phase, summary, suspects, ranks,
                      nextSteps, stats}
  --lang en|zh        language of the text report (default en; the JSON carries both)
  -h, --help          show this help

Exit status: 0 no HCCL failure recognised, 1 a failure was diagnosed, 2 a log cannot be read or the arguments
are wrong.

Examples:
  rankscope diagnose ./job-logs/ --rank-table hccl.json
  rankscope diagnose logs.tar.gz --format json
  kubectl logs job-worker-0 | rankscope diagnose - --lang zh
`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { "rank-table": { type: "string" }, format: { type: "string" }, lang: { type: "string" } });
    if (values.help) {
      io.stdout(diagnoseCommand.help);
      return EXIT_OK;
    }
    const format = choice("format", values.format, ["text", "json"], "text");
    const lang = choice("lang", values.lang, ["en", "zh"], "en");
    if (positionals.length === 0) throw new UsageError("no log given (files, directories, .tar.gz archives, or - for standard input)");
    let rankTable: string | undefined;
    if (values["rank-table"] !== undefined) {
      rankTable = await readInput(io, values["rank-table"]);
      if (rankTable === undefined) return EXIT_TROUBLE;
    }
    const diagnoser = new LogDiagnoser({ rankTable });
    const skipped: SkippedInput[] = [];
    for (const path of positionals) {
      try {
        if (path === "-") {
          if (!(await feedStdin(diagnoser, io))) return EXIT_TROUBLE;
        } else await feedPath(diagnoser, path, skipped);
      } catch (error) {
        io.stderr(`rankscope: cannot read ${path}: ${describeError(error)}\n`);
        return EXIT_TROUBLE;
      }
    }
    const report = diagnoser.finish();
    io.stdout(format === "json" ? `${JSON.stringify(report, null, 2)}\n` : formatDiagnosis(report, lang, skipped));
    if (format === "json") for (const skip of skipped) io.stderr(`rankscope: skipped ${skip.path}: ${skip.reason}\n`);
    return report.phase === "unknown" ? EXIT_OK : EXIT_FINDINGS;
  },
};
