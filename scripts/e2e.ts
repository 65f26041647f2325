/**
 * `npm run test:e2e`: builds the app into .next-e2e (the standalone build the other runners share,
 * scripts/production-build.ts), gives it a throwaway database (a fresh database on TEST_DATABASE_URL's server, or an
 * embedded PostgreSQL in a temporary directory), runs Playwright in Debian's Chromium against it (served by
 * scripts/serve.ts, see playwright.config.ts), and removes the database afterwards. Extra arguments go to
 * `playwright test`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "@/db/embedded";
import { lockCheckout } from "./e2e-lock";
import { buildStandalone, projectRoot, standaloneServer } from "./production-build";
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
    const child = spawn(command, args, { cwd: projectRoot, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

await lockCheckout();
// Ctrl-C still runs the exit handlers, which release the lock.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
const buildCode = await buildStandalone({ typecheck: false });
if (buildCode !== 0) process.exit(buildCode);

const database = await throwawayDatabase("rankscope_e2e");
// Playwright's webServer (scripts/serve.ts start) inherits these: the standalone server.js, the port, the database.
const serverEnv: Record<string, string> = { RANKSCOPE_STANDALONE_SERVER: standaloneServer, E2E_PORT: String(await freePort()), ...database.env };

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const code = await run(npx, ["playwright", "test", ...process.argv.slice(2)], serverEnv);
await database.cleanup();
process.exit(code);
