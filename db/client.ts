import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

export type Database = NodePgDatabase<typeof schema>;
export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
}

export function connectDatabase(url: string, options: { max?: number; applicationName?: string; connectionTimeoutMillis?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    ...(options.connectionTimeoutMillis ? { connectionTimeoutMillis: options.connectionTimeoutMillis } : {}),
  });
  // A client that loses its server (PostgreSQL restarting) must not crash the process: idle ones report it on the
  // pool, and one checked out between two queries of a transaction emits "error" on itself, which with no listener
  // is an uncaught exception. Its next query fails instead (503 for the caller), and the pool drops it on release.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return { pool, db: drizzle(pool, { schema }) };
}

export class DatabaseNotConfiguredError extends Error {
  constructor() {
    super("DATABASE_URL is not set: start the console with `npm run dev` or `npm start`, which provide a database");
    this.name = "DatabaseNotConfiguredError";
  }
}

const globalForDb = globalThis as typeof globalThis & { rankscopeDatabase?: DatabaseHandle; rankscopeReadDatabase?: DatabaseHandle; rankscopeAnswersDatabase?: DatabaseHandle };

/** Names the pools' sessions in pg_stat_activity, so an operator (and `npm run test:cluster`) sees which is which. */
export const primaryApplicationName = "rankscope";
export const replicaApplicationName = "rankscope-read";
export const answersApplicationName = "rankscope-answers";

/**
 * The app's shared pool on the primary (DATABASE_URL), created on first use (kept on globalThis so dev reloads reuse
 * it): every write, every transaction, sessions, rate limits, advisory locks and LISTEN/NOTIFY, and every read not
 * routed through `db/read-database.ts`.
 */
export function appDatabase(): DatabaseHandle {
  const url = process.env.DATABASE_URL;
  if (!url) throw new DatabaseNotConfiguredError();
  globalForDb.rankscopeDatabase ??= connectDatabase(url, { applicationName: primaryApplicationName });
  return globalForDb.rankscopeDatabase;
}

/**
 * The pool on the streaming replica (DATABASE_READ_URL), or undefined when none is configured. Use it only through
 * `readDatabase`/`onReadDatabase` (db/read-database.ts), which decide per request whether the replica may answer.
 */
export function replicaDatabase(): DatabaseHandle | undefined {
  const url = process.env.DATABASE_READ_URL;
  if (!url) return undefined;
  globalForDb.rankscopeReadDatabase ??= connectDatabase(url, { applicationName: replicaApplicationName });
  return globalForDb.rankscopeReadDatabase;
}

/**
 * A small pool of its own on the primary for the fault answers shared between instances
 * (db/queries/faults/shared-answers.ts): a computation holds one of its connections (and the key's advisory lock) while
 * it reads through the app's pools, so waiting there can never starve those; past its connection timeout an answer is
 * computed unshared.
 */
export function answersDatabase(): DatabaseHandle {
  const url = process.env.DATABASE_URL;
  if (!url) throw new DatabaseNotConfiguredError();
  globalForDb.rankscopeAnswersDatabase ??= connectDatabase(url, { max: 8, applicationName: answersApplicationName, connectionTimeoutMillis: 2_000 });
  return globalForDb.rankscopeAnswersDatabase;
}
