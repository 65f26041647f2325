/**
 * `npm run test:e2e`: builds the app into .next-e2e, gives it a throwaway database (a fresh database on
 * TEST_DATABASE_URL's server, or an embedded PostgreSQL in a temporary directory), runs Playwright in Debian's
 * Chromium, and removes the database afterwards. Extra arguments go to `playwright test`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/db/embedded";
import { adminQuery, withDatabase } from "@/test/urls";
import { lockCheckout } from "./e2e-lock";

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

const serverEnv: Record<string, string> = { NEXT_DIST_DIR: distDir, E2E_PORT: String(await freePort()) };
let cleanup: () => Promise<void>;
const testServer = process.env.TEST_DATABASE_URL;
if (testServer) {
  const name = `rankscope_e2e_${randomBytes(6).toString("hex")}`;
  await adminQuery(testServer, `create database ${name}`);
  serverEnv.DATABASE_URL = withDatabase(testServer, name);
  cleanup = () => adminQuery(testServer, `drop database if exists ${name} with (force)`);
} else {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-e2e-pg-"));
  serverEnv.DATABASE_URL = "";
  serverEnv.RANKSCOPE_DATA_DIR = dataDir;
  cleanup = () => rm(dataDir, { recursive: true, force: true });
}

const code = await run(npx, ["playwright", "test", ...process.argv.slice(2)], serverEnv);
await cleanup();
process.exit(code);
