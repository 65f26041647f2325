import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { seedDemo } from "@/db/seed";

export interface BenchDatabase {
  readonly handle: DatabaseHandle;
  readonly server: EmbeddedServer;
  /** Whether the database was kept from an earlier run (`keep`), demo inventory and all that run stored. */
  readonly reused: boolean;
  /** Stops and starts the server on the same data, so the next queries meet empty shared buffers. */
  restart(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL holding the schema and the demo inventory, for one bench section; stopped and
 * removed afterwards whatever happens. With `keep` (a name) and RANKSCOPE_BENCH_DATA_DIR set, the data directory is
 * `$RANKSCOPE_BENCH_DATA_DIR/<keep>` and survives the run, so the next run skips what it already holds (10M
 * generated events take 6-15 minutes); migrations are applied to it every time.
 */
export async function withDemoDatabase(poolSize: number, work: (database: BenchDatabase) => Promise<void>, options: { keep?: string } = {}): Promise<void> {
  const keptParent = process.env.RANKSCOPE_BENCH_DATA_DIR;
  const kept = options.keep && keptParent ? path.resolve(keptParent, options.keep) : null;
  if (kept) await mkdir(path.dirname(kept), { recursive: true });
  const dataDir = kept ?? (await mkdtemp(path.join(os.tmpdir(), "rankscope-bench-pg-")));
  // Persistent so that restart() keeps the data; a throwaway directory is removed below.
  const start = () => startEmbeddedPostgres({ dataDir, persistent: true });
  let server = await start();
  const reused = !server.created;
  let handle = connectDatabase(server.url(), { max: poolSize });
  const database: BenchDatabase = {
    get handle() {
      return handle;
    },
    get server() {
      return server;
    },
    reused,
    async restart() {
      await handle.pool.end();
      await server.stop();
      server = await start();
      handle = connectDatabase(server.url(), { max: poolSize });
    },
  };
  try {
    await migrate(handle.pool);
    if (!reused) await seedDemo(handle.db);
    await work(database);
  } finally {
    await handle.pool.end();
    await server.stop();
    if (!kept) await rm(dataDir, { recursive: true, force: true });
  }
}
