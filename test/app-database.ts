import { afterAll, beforeAll } from "vitest";
import { testDatabase } from "./database";

type Pooled = { pool: { end(): Promise<void> } };
const globals = globalThis as typeof globalThis & { rankscopeDatabase?: Pooled; rankscopeAnswersDatabase?: Pooled; rankscopeAuth?: unknown };

/**
 * Points the app's own database handle (appDatabase(), the auth instance) at this file's test database, for tests
 * that call route handlers or server code directly. Call at the top of an *.int.test.ts file.
 */
export function withAppDatabase(): void {
  beforeAll(() => {
    process.env.DATABASE_URL = testDatabase().url;
    globals.rankscopeDatabase = undefined;
    globals.rankscopeAnswersDatabase = undefined;
    globals.rankscopeAuth = undefined;
  });
  afterAll(async () => {
    await globals.rankscopeDatabase?.pool.end();
    await globals.rankscopeAnswersDatabase?.pool.end();
    globals.rankscopeDatabase = undefined;
    globals.rankscopeAnswersDatabase = undefined;
    globals.rankscopeAuth = undefined;
    delete process.env.DATABASE_URL;
  });
}
