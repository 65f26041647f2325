/**
 * `rankscope`: the command line for rank tables (and, later, for users and tokens). Each subcommand lives in
 * commands/<name>.ts and is listed in COMMANDS; `run` takes the arguments and an I/O object, so tests can run the
 * CLI in-process, and returns the exit status.
 */
import { pathToFileURL } from "node:url";
import { EXIT_OK, EXIT_TROUBLE, UsageError, type Command } from "./command";
import { tokenCommand, userCommand } from "./commands/accounts";
import { affinityCommand } from "./commands/affinity";
import { clusterCommand } from "./commands/cluster";
import { diagnoseCommand } from "./commands/diagnose";
import { fixCommand } from "./commands/fix";
import { fmtCommand } from "./commands/fmt";
import { generateCommand } from "./commands/generate";
import { portsCommand } from "./commands/ports";
import { validateCommand } from "./commands/validate";
import { nodeIo, type CliIo } from "./io";

export const COMMANDS: readonly Command[] = [validateCommand, fmtCommand, generateCommand, fixCommand, userCommand, tokenCommand, clusterCommand, diagnoseCommand, portsCommand, affinityCommand];

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: rankscope COMMAND [OPTIONS]

Commands:
${lines.join("\n")}

Run "rankscope COMMAND --help" for the options of a command, with examples.

Example:
  rankscope validate hccl.json
`;
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
    io.stdout(topic ? topic.help : overview());
    return EXIT_OK;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    io.stderr(`rankscope: unknown command ${JSON.stringify(name)}\n\n${overview()}`);
    return EXIT_TROUBLE;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`rankscope ${command.name}: ${error.message}\nRun "rankscope ${command.name} --help" for usage.\n`);
    return EXIT_TROUBLE;
  }
}

/** Runs the CLI on this process's arguments and sets its exit status. */
export async function main(): Promise<void> {
  try {
    process.exitCode = await run(process.argv.slice(2), nodeIo());
  } catch (error) {
    process.stderr.write(`rankscope: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = EXIT_TROUBLE;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
