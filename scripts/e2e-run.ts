/**
 * The parts of an end-to-end run, shared by `npm run test:e2e` (scripts/e2e.ts) and `npm test` (scripts/test.ts):
 * the one standalone build (scripts/production-build.ts) and a throwaway database migrated and seeded as the e2e
 * server wants it (`scripts/serve.ts prepare`), made side by side, then Playwright in Debian's Chromium against them
 * (served by scripts/serve.ts, see playwright.config.ts).
 */
import { existsSync } from "node:fs";
import { freePort } from "@/db/embedded";
import { e2eSeedEnv } from "@/e2e/server-env";
import { lockCheckout } from "./e2e-lock";
import { buildStandalone, standaloneServer } from "./production-build";
import { npx, runCommand } from "./run-command";
import { throwawayDatabase } from "./throwaway-database";

/** Exits with one sentence when Chromium is missing, before anything is built. */
export function requireChromium(): void {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(chromium)) return;
  console.error(
    `End-to-end tests need Chromium at ${chromium}: install Debian's package (sudo apt-get install chromium) ` +
      "or set CHROMIUM_PATH to another Chromium binary.",
  );
  process.exit(1);
}

export interface PreparedRun {
  /** 0 when the build and the database are ready. */
  code: number;
  /** Playwright's webServer (scripts/serve.ts start) inherits these: the standalone server.js, the port, the database. */
  serverEnv: Record<string, string>;
  cleanup: () => Promise<void>;
}

/**
 * Takes the checkout's lock, then builds while the throwaway database is migrated and seeded (the 17,168-die
 * SuperCluster is PostgreSQL's work, the build the CPU's), so the e2e server finds it done and starts at once.
 * `buildNiceness` lowers the build's priority beside other tests (scripts/test.ts).
 */
export async function prepareEndToEnd(options: { buildNiceness?: number } = {}): Promise<PreparedRun> {
  await lockCheckout();
  let database: Awaited<ReturnType<typeof throwawayDatabase>>;
  try {
    database = await throwawayDatabase("rankscope_e2e");
  } catch (error) {
    // One sentence, not a stack: most often TEST_DATABASE_URL's server is not there.
    console.error(`[e2e] cannot make the test database: ${error instanceof Error ? error.message : String(error)}`);
    return { code: 1, serverEnv: {}, cleanup: async () => {} };
  }
  const serverEnv: Record<string, string> = { RANKSCOPE_STANDALONE_SERVER: standaloneServer, E2E_PORT: String(await freePort()), ...database.env };
  const [buildCode, prepareCode] = await Promise.all([
    buildStandalone({ typecheck: false, niceness: options.buildNiceness }),
    runCommand(npx, ["tsx", "scripts/serve.ts", "prepare"], { ...serverEnv, ...e2eSeedEnv }),
  ]);
  if (prepareCode !== 0) console.error(`[e2e] preparing the test database failed (exit ${prepareCode})`);
  return { code: buildCode || prepareCode, serverEnv, cleanup: database.cleanup };
}

/** Playwright against a prepared run; extra arguments go to `playwright test`. Resolves to its exit code. */
export function runPlaywright(prepared: PreparedRun, args: string[]): Promise<number> {
  return runCommand(npx, ["playwright", "test", ...args], prepared.serverEnv);
}
