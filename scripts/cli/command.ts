/** The shape of a `rankscope` subcommand, and helpers every command shares. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { CliIo } from "./io";

export const EXIT_OK = 0;
/** Some input has an error finding (or, for fmt --check, is not canonical). */
export const EXIT_FINDINGS = 1;
/** A file could not be read or written, or the arguments are wrong. */
export const EXIT_TROUBLE = 2;

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The full `--help` text, with an example. */
  help: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

/** Thrown for wrong arguments; the dispatcher prints it with a pointer to --help and exits 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs in strict mode, with its errors turned into UsageErrors. */
export function parseCommandArgs<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Checks a value against a fixed list of choices. */
export function choice<T extends string>(name: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${choices.join(", ")}, not ${JSON.stringify(value)}`);
}

/** A whole number option (e.g. a port or a count). */
export function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** The message of an error from the file system or elsewhere, without a stack. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code}: ${error.message.replace(/^\w+: /, "")}` : error.message;
  }
  return String(error);
}

/** Reads an input file, reporting failure on stderr; undefined when it cannot be read. */
export async function readInput(io: CliIo, path: string): Promise<string | undefined> {
  try {
    return await io.readText(path);
  } catch (error) {
    io.stderr(`rankscope: cannot read ${path}: ${describeError(error)}\n`);
    return undefined;
  }
}

/** The name to show for an input path ("-" is standard input). */
export function displayName(path: string): string {
  return path === "-" ? "<stdin>" : path;
}
