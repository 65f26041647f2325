/** What commands may do to the outside world, so tests can run them in-process with captured output. */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads a file as UTF-8; "-" reads standard input. */
  readText(path: string): Promise<string>;
  /** Replaces a file so that a crash leaves either the old or the new content, never a mix. */
  writeTextAtomic(path: string, text: string): Promise<void>;
  /** Names of the files in a directory. */
  listFiles(path: string): Promise<string[]>;
  /** Creates a directory and its parents, if missing (an output directory). */
  makeDirectory(path: string): Promise<void>;
  /** Whether standard output may carry ANSI colours. */
  color: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes to a temporary file in the same directory (same file system), then renames it over the target. */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const mode = await stat(path).then((stats) => stats.mode & 0o7777, () => undefined);
  try {
    await writeFile(temporary, text, { encoding: "utf8", flush: true });
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export function nodeIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readText: (path) => (path === "-" ? readStdin() : readFile(path, "utf8")),
    writeTextAtomic: writeFileAtomically,
    makeDirectory: async (path) => void (await mkdir(path, { recursive: true })),
    listFiles: async (path) => (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name),
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== "dumb",
  };
}
