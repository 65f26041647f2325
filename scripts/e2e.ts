/**
 * `npm run test:e2e`: builds the app into .next-e2e (the standalone build the other runners share,
 * scripts/production-build.ts) while a throwaway database (a fresh database on TEST_DATABASE_URL's server, or an
 * embedded PostgreSQL in a temporary directory) is migrated and seeded, runs Playwright in Debian's Chromium against
 * them (served by scripts/serve.ts, see playwright.config.ts), and removes the database afterwards. Extra arguments
 * go to `playwright test`.
 */
import { prepareEndToEnd, requireChromium, runPlaywright } from "./e2e-run";

requireChromium();
// Ctrl-C still runs the exit handlers, which release the checkout's lock.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));
const prepared = await prepareEndToEnd();
const code = prepared.code === 0 ? await runPlaywright(prepared, process.argv.slice(2)) : prepared.code;
await prepared.cleanup();
process.exit(code);
