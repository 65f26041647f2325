import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
// `server-only` throws outside React Server Components; route handlers are tested as plain functions.
const alias = { "@": root, "server-only": `${root}test/server-only-stub.ts` };
const ignored = ["node_modules/**", ".next/**", ".data/**", "e2e/**"];

// Two projects: pure unit tests, and integration tests that get a real PostgreSQL
// (TEST_DATABASE_URL, or an embedded server started once per run) with one fresh database per file.
export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default on 2 cores is one file at a time, and the integration files mostly wait (on PostgreSQL, on
    // timers, on workers): three at a time keep both cores busy. Each integration file has its own database.
    maxWorkers: 3,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: [...ignored, "**/*.int.test.ts"],
          // Generous: property tests run hundreds of cases and CI shares 2 cores; speed lives in `npm run bench`.
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          environment: "node",
          include: ["**/*.int.test.ts"],
          exclude: ignored,
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/database-per-file.ts", "test/pg-overlap-guard.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
