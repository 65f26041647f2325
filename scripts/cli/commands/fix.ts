import {
  A5_REPAIRS,
  assignPorts,
  convertLegacyTable,
  isA5Table,
  isLegacyLayout,
  pairBackups,
  parseRankTable,
  recomputeServerCount,
  renumberRanks,
  validateRankTable,
  writeRankTable,
  type Change,
  type JsonValue,
  type RankTableInput,
  type RepairResult,
} from "../../../lib/rank-table";
import { choice, displayName, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, wholeNumber, type Command } from "../command";
import type { CliIo } from "../io";
import { formatIssue } from "../report";
import { reportSyntaxProblem, writeOutput } from "./fmt";

/** The repairs of 1.x tables (after a legacy one is converted) and of "2.0" tables, by option; --renumber is both. */
const FLAGS_1X: readonly string[] = ["server-count", "renumber", "pair-backups", "ports"];
const FLAGS_A5: readonly string[] = A5_REPAIRS.map((repair) => repair.key);

export const fixCommand: Command = {
  name: "fix",
  summary: "repair ranks, backup pairs, ports, server_count and rank_count",
  help: `Usage: rankscope fix FILE [--convert-legacy] [--server-count] [--renumber] [--pair-backups] [--ports BASE]
                     [--numbers] [--rank-count] [--write] [--lang en|zh]

Applies the chosen repairs (in the order listed), prints the repaired table in canonical form, and lists each
change on stderr followed by the findings that remain. "-" reads standard input.

Repairs of a 1.x table (a legacy one once converted):
  --convert-legacy  convert the legacy group_list layout (no version) to version "1.0" with explicit ranks
                    (RT005, RT070-RT079); a legacy table is converted first whatever repairs are chosen
  --server-count    set server_count to the number of servers (RT015, RT016)
  --renumber        rank_id 0…N-1 in physical order: servers as listed, then device_id (RT044–RT049)
  --pair-backups    backup_device_ip = the other die of the same NPU, device_id 2k <-> 2k+1 (RT050–RT054)
  --ports BASE      host_port, device_port, backup_device_port in three blocks from BASE, never below 1024
                    and without conflicts (RT040–RT043)
Repairs of a version "2.0" table (the editor's, in this order):
  --numbers         numbers written as strings become JSON numbers (RT103)
  --rank-count      set rank_count to the number of rank_list entries (RT100, RT101)
  --renumber        rank_id 0…N-1 in the order of rank_list (RT104–RT107)
Options:
  --write           replace FILE in place, atomically
  --lang en|zh      language of the remaining findings
  -h, --help        show this help

Exit status: 0 the repaired table is valid, 1 errors remain (or FILE is not JSON), 2 FILE cannot be read or
written, or the arguments are wrong.

Examples:
  rankscope fix hccl.json --renumber --pair-backups --ports 16666 --write
  rankscope fix a5.json --numbers --rank-count --renumber --write
`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, {
      "convert-legacy": { type: "boolean" },
      "server-count": { type: "boolean" },
      renumber: { type: "boolean" },
      "pair-backups": { type: "boolean" },
      ports: { type: "string" },
      numbers: { type: "boolean" },
      "rank-count": { type: "boolean" },
      write: { type: "boolean" },
      lang: { type: "string" },
    });
    if (values.help) {
      io.stdout(fixCommand.help);
      return EXIT_OK;
    }
    const lang = choice("lang", values.lang, ["en", "zh"], "en");
    const basePort = wholeNumber("ports", values.ports);
    const chosen = (flag: string) => (flag === "ports" ? basePort !== undefined : values[flag as keyof typeof values] === true);
    if (!FLAGS_1X.some(chosen) && !FLAGS_A5.some(chosen) && !values["convert-legacy"]) throw new UsageError("choose at least one repair (see --help)");
    if (positionals.length !== 1) throw new UsageError("give exactly one FILE");
    const path = positionals[0]!;
    if (values.write && path === "-") throw new UsageError("--write needs a file, not standard input");
    const file = displayName(path);

    const text = await readInput(io, path);
    if (text === undefined) return EXIT_TROUBLE;
    const document = parseRankTable(text);
    if (!reportSyntaxProblem(io, file, document)) return EXIT_FINDINGS;
    let table: RankTableInput = document.value!;
    const a5 = isA5Table(table);
    const unsuited = (a5 ? FLAGS_1X : FLAGS_A5).find((flag) => chosen(flag) && !(a5 ? FLAGS_A5 : FLAGS_1X).includes(flag));
    if (unsuited !== undefined) throw new UsageError(`--${unsuited} does not apply to ${a5 ? "version 2.0" : "a 1.x or legacy table"}`);
    const repairs: ((table: RankTableInput) => RepairResult)[] = a5
      ? A5_REPAIRS.filter(({ key }) => chosen(key)).map(({ run }) => run)
      : [
          ...(values["server-count"] ? [recomputeServerCount] : []),
          ...(values.renumber ? [renumberRanks] : []),
          ...(values["pair-backups"] ? [pairBackups] : []),
          ...(basePort !== undefined ? [(value: RankTableInput) => assignPorts(value, { basePort })] : []),
        ];
    const changes: Change[] = [];
    if (values["convert-legacy"] || isLegacyLayout(table)) {
      const conversion = convertLegacyTable(table);
      if (!conversion.ok) {
        io.stderr(`${file}: cannot convert: ${conversion.reason[lang]}\n`);
        return EXIT_FINDINGS;
      }
      table = conversion.table;
      changes.push(...conversion.changes);
    }
    try {
      for (const repair of repairs) {
        const result = repair(table);
        table = result.table;
        changes.push(...result.changes);
      }
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new UsageError(error.message);
    }
    const output = writeRankTable(table);
    reportChanges(io, file, changes);
    const report = validateRankTable(output, { lang });
    for (const issue of report.issues) io.stderr(`${formatIssue(file, issue, false)}\n`);
    if (values.write) {
      if (output !== text && !(await writeOutput(io, path, output))) return EXIT_TROUBLE;
    } else {
      io.stdout(output);
    }
    return report.valid ? EXIT_OK : EXIT_FINDINGS;
  },
};

function reportChanges(io: CliIo, file: string, changes: readonly Change[]): void {
  const show = (value: JsonValue | undefined) => (value === undefined ? "(absent)" : JSON.stringify(value));
  for (const change of changes) io.stderr(`${file}: ${change.path || "/"}: ${show(change.before)} -> ${show(change.after)}\n`);
  io.stderr(`${file}: ${changes.length} change${changes.length === 1 ? "" : "s"}\n`);
}
