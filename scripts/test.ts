/**
 * `npm test`: every test. Vitest (unit and integration) runs while the end-to-end run is prepared (the one
 * standalone build and the seeded throwaway database, scripts/e2e-run.ts), then Playwright; the exit code is
 * Vitest's when it failed, otherwise Playwright's. Extra arguments go to `playwright test`.
 *
 * Side by side because they use different things: the integration files mostly wait on PostgreSQL and timers while
 * `next build` wants both cores for minutes. The build runs 10 below the tests' priority, so it takes the CPU Vitest
 * leaves and the tests' timings are theirs; one after the other they took Vitest's time plus the build's.
 */
import { prepareEndToEnd, requireChromium, runPlaywright } from "./e2e-run";
import { npx, runCommand } from "./run-command";

requireChromium();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const [vitestCode, prepared] = await Promise.all([
  runCommand(npx, ["vitest", "run"]).then((code) => {
    console.log(`[test] Vitest ended after ${seconds()} (exit ${code})`);
    return code;
  }),
  prepareEndToEnd({ buildNiceness: 10 }).then((run) => {
    console.log(`[test] the build and the e2e database were ready after ${seconds()} (exit ${run.code})`);
    return run;
  }),
]);
let code = vitestCode || prepared.code;
if (code === 0) code = await runPlaywright(prepared, process.argv.slice(2));
await prepared.cleanup();
process.exit(code);
