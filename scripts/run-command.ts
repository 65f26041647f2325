import { spawn } from "node:child_process";
import os from "node:os";
import { checkout } from "./e2e-lock";

export const npx = process.platform === "win32" ? "npx.cmd" : "npx";

/**
 * Runs a command in the checkout with its output shown and `env` added to this process's; resolves to its exit code
 * (1 when it cannot start or a signal ended it). `niceness` lowers its priority (its children inherit it) for work
 * that should take only the CPU the rest leaves; where the platform refuses, it runs at the default priority.
 */
export function runCommand(command: string, args: string[], env: Record<string, string> = {}, options: { niceness?: number } = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: checkout, stdio: "inherit", env: { ...process.env, ...env } });
    if (options.niceness && child.pid) {
      try {
        os.setPriority(child.pid, options.niceness);
      } catch {
        // Not permitted here: the same work, only slower beside the rest.
      }
    }
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
