import path from "node:path";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/db/embedded";

export interface ResolvedDatabase {
  url: string;
  embedded?: EmbeddedServer;
  close(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded PostgreSQL in .data/postgres, started for the caller. */
export async function resolveDatabase(log: (line: string) => void): Promise<ResolvedDatabase> {
  const configured = process.env.DATABASE_URL;
  if (configured) return { url: configured, close: async () => {} };
  const embedded = await startEmbeddedPostgres({ log });
  log(`DATABASE_URL is not set: started the embedded PostgreSQL in ${path.relative(process.cwd(), embedded.dataDir) || "."}`);
  log(`embedded PostgreSQL is listening on 127.0.0.1:${embedded.port}${embedded.created ? " (new data directory)" : ""}`);
  return { url: embedded.url(), embedded, close: () => embedded.stop() };
}

/** Runs `work` with a database connection, starting and stopping the embedded server around it if needed. */
export async function withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = await resolveDatabase((line) => console.error(line));
  const handle = connectDatabase(database.url, { max: 2 });
  try {
    return await work(handle);
  } finally {
    await handle.pool.end();
    await database.close();
  }
}
