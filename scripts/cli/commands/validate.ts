import { validateRankTable, type ValidationReport } from "../../../lib/rank-table";
import { choice, displayName, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import { formatIssue, formatOmitted, formatSummary, formatTotals } from "../report";

export const validateCommand: Command = {
  name: "validate",
  summary: "check rank tables against every rule (RT000–RT124)",
  help: `Usage: rankscope validate FILE... [--format text|json] [--lang en|zh]

Checks HCCL rank tables (versions "1.0", "1.2" and "2.0", and the legacy template without version; JSON, or
JSON with comments) against every rule of the rank-table spec, and names look-alike files that are not HCCL
rank tables (LLM-DataDist prefill/decode tables, MindIE's global rank table). "-" reads standard input.

Options:
  --format text|json  text (default): one "file:line:col: severity CODE message" line per finding, then a
                      summary line per file; json: the report object (an array of reports, each with its
                      "file", when several files are given)
  --lang en|zh        language of messages and summaries (default en; codes and severities never change)
  -h, --help          show this help

Exit status: 0 every file is valid, 1 some file has an error finding, 2 a file cannot be read or the
arguments are wrong.

Examples:
  rankscope validate hccl.json
  rankscope validate --format json rank_table_*.json
  kubectl get cm rings-config-job -o jsonpath='{.data.hccl\\.json}' | rankscope validate -
`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { format: { type: "string" }, lang: { type: "string" } });
    if (values.help) {
      io.stdout(validateCommand.help);
      return EXIT_OK;
    }
    const format = choice("format", values.format, ["text", "json"], "text");
    const lang = choice("lang", values.lang, ["en", "zh"], "en");
    if (positionals.length === 0) throw new UsageError("no file given (use - for standard input)");

    const reports: { file: string; report: ValidationReport }[] = [];
    let unreadable = 0;
    for (const path of positionals) {
      const text = await readInput(io, path);
      if (text === undefined) {
        unreadable++;
        continue;
      }
      const file = displayName(path);
      const report = validateRankTable(text, { lang });
      reports.push({ file, report });
      if (format === "text") {
        for (const issue of report.issues) io.stdout(`${formatIssue(file, issue, io.color)}\n`);
        const omitted = formatOmitted(file, report, lang);
        if (omitted) io.stdout(`${omitted}\n`);
        io.stdout(`${formatSummary(file, report, lang)}\n`);
      }
    }
    const invalid = reports.filter(({ report }) => !report.valid).length;
    if (format === "json") {
      const output = positionals.length === 1 ? reports[0]?.report : reports.map(({ file, report }) => ({ file, ...report }));
      if (output !== undefined) io.stdout(`${JSON.stringify(output, null, 2)}\n`);
    } else if (positionals.length > 1) {
      io.stdout(`${formatTotals(positionals.length, invalid, unreadable, lang)}\n`);
    }
    if (unreadable > 0) return EXIT_TROUBLE;
    return invalid > 0 ? EXIT_FINDINGS : EXIT_OK;
  },
};
