import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { seedDemo } from "@/db/seed";

export interface BenchDatabase {
  readonly handle: DatabaseHandle;
  readonly server: EmbeddedServer;
  /** Stops and starts the server on the same data, so the next queries meet empty shared buffers. */
  restart(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL holding the schema and the demo inventory, for one bench section; stopped and
 * removed afterwards whatever happens.
 */
export async function withDemoDatabase(poolSize: number, work: (database: BenchDatabase) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-bench-pg-"));
  // Persistent so that restart() keeps the data; the directory is removed below.
  const start = () => startEmbeddedPostgres({ dataDir, persistent: true });
  let server = await start();
  let handle = connectDatabase(server.url(), { max: poolSize });
  const database: BenchDatabase = {
    get handle() {
      return handle;
    },
    get server() {
      return server;
    },
    async restart() {
      await handle.pool.end();
      await server.stop();
      server = await start();
      handle = connectDatabase(server.url(), { max: poolSize });
    },
  };
  try {
    await migrate(handle.pool);
    await seedDemo(handle.db);
    await work(database);
  } finally {
    await handle.pool.end();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
