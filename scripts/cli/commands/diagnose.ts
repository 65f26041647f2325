import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { DiagnosisReport, Suspect } from "../../../lib/hccl-diagnose";
import { LogDiagnoser } from "../../../lib/hccl-diagnose";
import { feedPath, type SkippedInput } from "../../../server/hccl-logs/sources";
import { choice, describeError, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import type { CliIo } from "../io";

type Lang = "en" | "zh";

const LABELS = {
  en: { suspects: "Suspects", none: "No suspect could be named.", ranks: "Ranks", next: "Next steps", read: "Read", confidence: "confidence", history: "Network fault events of both NICs", noEvents: "none" },
  zh: { suspects: "嫌疑点", none: "无法确定嫌疑点。", ranks: "Rank", next: "下一步", read: "读取", confidence: "置信度", history: "两端网卡的网络故障事件", noEvents: "无" },
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
    const history = suspect.linkHistory;
    if (history) {
      lines.push(`     ${labels.history} ${history.from} – ${history.to}: ${history.events.length === 0 ? labels.noEvents : ""}`.trimEnd());
      for (const event of history.events) lines.push(`       ${event.beganAt} ${event.kind}${event.code ? ` ${event.code}` : ""} ${event.target} ${event.die} (NIC ${event.nic})${event.endedAt ? ` → ${event.endedAt}` : ""}`);
    }
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
  --job ID            a job of the console's database (DATABASE_URL, or the embedded one when the console is not
                      running): its rank table is used (unless --rank-table), and the report is stored as a
                      diagnosis of the job, its suspects as hccl-error fault events (audited)
  -h, --help          show this help

Exit status: 0 no HCCL failure recognised, 1 a failure was diagnosed, 2 a log cannot be read or the arguments
are wrong.

Examples:
  rankscope diagnose ./job-logs/ --rank-table hccl.json
  rankscope diagnose logs.tar.gz --format json
  rankscope diagnose ./job-logs/ --job 12
  kubectl logs job-worker-0 | rankscope diagnose - --lang zh
`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { "rank-table": { type: "string" }, format: { type: "string" }, lang: { type: "string" }, job: { type: "string" } });
    if (values.help) {
      io.stdout(diagnoseCommand.help);
      return EXIT_OK;
    }
    const format = choice("format", values.format, ["text", "json"], "text");
    const lang = choice("lang", values.lang, ["en", "zh"], "en");
    if (positionals.length === 0) throw new UsageError("no log given (files, directories, .tar.gz archives, or - for standard input)");
    const jobId = values.job === undefined ? undefined : /^\d{1,9}$/.test(values.job) && Number(values.job) > 0 ? Number(values.job) : NaN;
    if (Number.isNaN(jobId)) throw new UsageError(`--job takes a job id (a positive number), not ${JSON.stringify(values.job)}`);
    let rankTable: string | undefined;
    if (values["rank-table"] !== undefined) {
      rankTable = await readInput(io, values["rank-table"]);
      if (rankTable === undefined) return EXIT_TROUBLE;
    }
    const diagnose = async (table: string | undefined) => {
      const diagnoser = new LogDiagnoser({ rankTable: table });
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
      return { report: diagnoser.finish(), skipped };
    };
    if (jobId !== undefined) return diagnoseJob(jobId, rankTable, positionals, diagnose, (report, skipped) => print(report, skipped), io);
    const outcome = await diagnose(rankTable);
    if (typeof outcome === "number") return outcome;
    return print(outcome.report, outcome.skipped);

    function print(report: DiagnosisReport, skipped: SkippedInput[]): number {
      io.stdout(format === "json" ? `${JSON.stringify(report, null, 2)}\n` : formatDiagnosis(report, lang, skipped));
      if (format === "json") for (const skip of skipped) io.stderr(`rankscope: skipped ${skip.path}: ${skip.reason}\n`);
      return report.phase === "unknown" ? EXIT_OK : EXIT_FINDINGS;
    }
  },
};

/** Bytes of the given files and directories (recursively); standard input counts nothing. */
async function sizeOf(paths: readonly string[]): Promise<number> {
  let total = 0;
  for (const path of paths) {
    if (path === "-") continue;
    const info = await stat(path);
    if (info.isDirectory()) total += await sizeOf((await readdir(path)).map((name) => join(path, name)));
    else total += info.size;
  }
  return total;
}

/** `--job ID`: the job's rank table for the diagnosis, the report stored as a diagnosis of the job. */
async function diagnoseJob(
  jobId: number,
  rankTable: string | undefined,
  paths: readonly string[],
  diagnose: (table: string | undefined) => Promise<number | { report: DiagnosisReport; skipped: SkippedInput[] }>,
  print: (report: DiagnosisReport, skipped: SkippedInput[]) => number,
  io: CliIo,
): Promise<number> {
  // Loaded only for --job: the database layer is most of the command's start-up, and a diagnosis of files needs none of it.
  const [{ getJob }, { storeDiagnosis }, { cliActor, database }] = await Promise.all([import("../../../db/queries/jobs"), import("../../../db/queries/job-diagnoses"), import("./accounts")]);
  return database(async (handle) => {
    const job = await getJob(handle.db, jobId);
    if (!job) {
      io.stderr(`rankscope diagnose: there is no job ${jobId}\n`);
      return EXIT_TROUBLE;
    }
    const outcome = await diagnose(rankTable ?? job.rankTableText ?? undefined);
    if (typeof outcome === "number") return outcome;
    const stored = await storeDiagnosis(handle, jobId, outcome.report, { files: outcome.report.stats.files, bytes: await sizeOf(paths) }, cliActor());
    io.stderr(`rankscope: stored as diagnosis ${stored.id} of job ${jobId} (${job.namespace}/${job.name}), ${stored.faultEventIds.length} fault event(s)\n`);
    // The stored report: an error CQE's suspects carry their NICs' link-down history from the fault events.
    return print(stored.report, outcome.skipped);
  });
}
