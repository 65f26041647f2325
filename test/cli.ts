/** Runs `rankscope` in-process for tests: files and standard input from memory, output and written files captured. */
import { run } from "@/scripts/cli/index";
import type { CliIo } from "@/scripts/cli/io";

export interface Captured {
  status: number;
  stdout: string;
  stderr: string;
  written: Map<string, string>;
}

export async function rankscope(argv: string[], files: Record<string, string> = {}, stdin = ""): Promise<Captured> {
  const captured = { stdout: "", stderr: "", written: new Map<string, string>() };
  const io: CliIo = {
    stdout: (text) => void (captured.stdout += text),
    stderr: (text) => void (captured.stderr += text),
    readText: async (path) => {
      if (path === "-") return stdin;
      const text = files[path] ?? captured.written.get(path);
      if (text === undefined) throw Object.assign(new Error(`no such file or directory, open '${path}'`), { code: "ENOENT" });
      return text;
    },
    writeTextAtomic: async (path, text) => void captured.written.set(path, text),
    makeDirectory: async () => {},
    listFiles: async (directory) => Object.keys(files).filter((path) => path.startsWith(`${directory}/`)).map((path) => path.slice(directory.length + 1)),
    color: false,
  };
  const status = await run(argv, io);
  return { status, ...captured };
}
