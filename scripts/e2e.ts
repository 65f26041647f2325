/**
 * `npm run test:e2e`: builds the app into .next-e2e, gives it a throwaway database (a fresh database on
 * TEST_DATABASE_URL's server, or an embedded PostgreSQL in a temporary directory), runs Playwright in Debian's
 * Chromium, and removes the database afterwards. Extra arguments go to `playwright test`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "@/db/embedded";
import { lockCheckout } from "./e2e-lock";
import { throwawayDatabase } from "./throwaway-database";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(
    `End-to-end tests need Chromium at ${chromium}: install Debian's package (sudo apt-get install chromium) ` +
      "or set CHROMIUM_PATH to another Chromium binary.",
  );
  process.exit(1);
}

function run(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

await lockCheckout();
// Ctrl-C still runs the exit handlers, which release the lock.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
const distDir = ".next-e2e";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const buildCode = await run(npx, ["next", "build"], {
  NEXT_DIST_DIR: distDir,
  NEXT_TELEMETRY_DISABLED: "1",
  RANKSCOPE_SKIP_BUILD_TYPECHECK: "1",
});
if (buildCode !== 0) process.exit(buildCode);

const database = await throwawayDatabase("rankscope_e2e");
const serverEnv: Record<string, string> = { NEXT_DIST_DIR: distDir, E2E_PORT: String(await freePort()), ...database.env };

const code = await run(npx, ["playwright", "test", ...process.argv.slice(2)], serverEnv);
await database.cleanup();
process.exit(code);
