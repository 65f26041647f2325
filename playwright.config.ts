import { defineConfig, devices } from "@playwright/test";
import { e2eSeedEnv } from "./e2e/server-env";

const port = Number(process.env.E2E_PORT ?? 3100);
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
};

/**
 * Runs against the standalone production build (scripts/production-build.ts) served by scripts/serve.ts on a throwaway
 * database (RANKSCOPE_STANDALONE_SERVER); `npm run test:e2e` (scripts/e2e.ts) builds, picks the port and the database,
 * then calls Playwright. Chromium is Debian's.
 */
export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace only for a retried test (CI retries once): recording one for every test (DOM snapshots and screencast
    // of each action) cost overview.spec.ts 24-26 s of CPU against 13-14 s without (load 12-16); locally, run a
    // failing spec again with `--trace on`.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    locale: "en-US",
  },
  projects: [
    // Signs in once as each demo account (e2e/auth.setup.ts) and keeps the sessions in e2e/.auth/<role>.json.
    { name: "setup", testMatch: /auth\.setup\.ts$/, use: { ...devices["Desktop Chrome"], launchOptions } },
    {
      name: "chromium",
      dependencies: ["setup"],
      testIgnore: /auth\.setup\.ts$/,
      use: {
        ...devices["Desktop Chrome"],
        // Specs run as the demo viewer unless they choose another account (test.use({ storageState: ... })).
        storageState: "e2e/.auth/viewer.json",
        launchOptions,
      },
    },
  ],
  webServer: {
    command: "npx tsx scripts/serve.ts start",
    url: `http://127.0.0.1:${port}/api/health`,
    // Seeding the demo and the scale test's SuperCluster (17,168 dies) on a busy machine, when `npm run test:e2e` has
    // not seeded the database already (scripts/e2e-run.ts).
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: { PORT: String(port), ...e2eSeedEnv, NEXT_TELEMETRY_DISABLED: "1" },
  },
});
