import { parseRankTable, validateRankTable, writeRankTable, type RankTableDocument } from "../../../lib/rank-table";
import type { CliIo } from "../io";
import { describeError, displayName, EXIT_FINDINGS, EXIT_OK, EXIT_TROUBLE, parseCommandArgs, readInput, UsageError, type Command } from "../command";
import { formatIssue } from "../report";

export const fmtCommand: Command = {
  name: "fmt",
  summary: "write a rank table in canonical form",
  help: `Usage: rankscope fmt FILE [--write | --check]

Prints the canonical form of a rank table: two-space indent, keys in the reference's order (unknown fields
kept after the known ones), every scalar as a string, no comments, a final newline. Formatting twice changes
nothing. "-" reads standard input.

Options:
  --write     replace FILE in place, atomically (a crash leaves the old file whole)
  --check     print nothing; exit 1 when FILE is not in canonical form
  -h, --help  show this help

Exit status: 0 done, 1 FILE is not JSON (or, with --check, not canonical), 2 FILE cannot be read or written,
or the arguments are wrong.

Examples:
  rankscope fmt hccl.json > hccl.canonical.json
  rankscope fmt --write hccl.json
`,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { write: { type: "boolean" }, check: { type: "boolean" } });
    if (values.help) {
      io.stdout(fmtCommand.help);
      return EXIT_OK;
    }
    if (positionals.length !== 1) throw new UsageError("give exactly one FILE");
    if (values.write && values.check) throw new UsageError("--write and --check exclude each other");
    const path = positionals[0]!;
    if (values.write && path === "-") throw new UsageError("--write needs a file, not standard input");
    const text = await readInput(io, path);
    if (text === undefined) return EXIT_TROUBLE;
    const document = parseRankTable(text);
    if (!reportSyntaxProblem(io, displayName(path), document)) return EXIT_FINDINGS;
    const canonical = writeRankTable(document.value!);
    if (values.check) {
      if (canonical === text) return EXIT_OK;
      io.stderr(`${displayName(path)}: not in canonical form (run rankscope fmt --write ${path})\n`);
      return EXIT_FINDINGS;
    }
    if (document.commentCount > 0) io.stderr(`${displayName(path)}: ${document.commentCount} comment(s) dropped\n`);
    if (!values.write) {
      io.stdout(canonical);
      return EXIT_OK;
    }
    if (canonical === text) return EXIT_OK;
    return (await writeOutput(io, path, canonical)) ? EXIT_OK : EXIT_TROUBLE;
  },
};

/** Prints the RT000 finding of unparseable text on stderr; false when there was one. */
export function reportSyntaxProblem(io: CliIo, file: string, document: RankTableDocument): boolean {
  if (document.syntaxProblem === undefined) return true;
  for (const issue of validateRankTable(document).issues) io.stderr(`${formatIssue(file, issue, false)}\n`);
  return false;
}

/** Writes a file atomically, reporting failure on stderr. */
export async function writeOutput(io: CliIo, path: string, text: string): Promise<boolean> {
  try {
    await io.writeTextAtomic(path, text);
    return true;
  } catch (error) {
    io.stderr(`rankscope: cannot write ${path}: ${describeError(error)}\n`);
    return false;
  }
}
