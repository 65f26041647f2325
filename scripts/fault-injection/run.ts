/**
 * `npm run test:faults-injection`: what a database restart and a crashed app process do to clients and data, against
 * the suite's own PostgreSQL (an embedded server in a temporary directory on a port of its own; the machine's shared
 * server is never touched) and the app's route handlers in their own process (./app-server.ts).
 *
 * 1. PostgreSQL stopped and started under load: while it is down every answer is 503 `database_unavailable` with
 *    Retry-After (never a 500), and once it is back every client gets 200 again without an app restart.
 * 2. `kill -9` of the app in the middle of fault-event batches: every acknowledged batch is stored whole, an
 *    unacknowledged one whole or not at all, and re-posting everything stores each event exactly once.
 * 3. `kill -9` of the app in the middle of rank-table saves: every acknowledged revision is there, at most the one
 *    in flight besides, revisions are numbered without gaps and the table points at the newest.
 *
 * Prints the figures of each phase; exits 1 when any check fails.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "@/db/client";
import { freePort, startEmbeddedPostgres } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { killMidBatch, killMidSave } from "./app-kills";
import { restartUnderLoad } from "./database-restart";
import { failures, log } from "./harness";

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-faults-pg-"));
  const started = Date.now();
  const port = await freePort();
  const start = () => startEmbeddedPostgres({ dataDir, port, log });
  const pg = { server: await start(), restart: start };
  const databaseUrl = pg.server.url();
  // The suite's own connection: it sees the restart too, and reconnects like the app's pool.
  const handle = connectDatabase(databaseUrl, { max: 2 });
  try {
    await migrate(handle.pool);
    await seedDemo(handle.db);
    const { token } = await createApiToken(handle.db, { name: "fault injection", role: "editor" }, systemActor);
    log(`own PostgreSQL on 127.0.0.1:${port} (${dataDir}); set up in ${Date.now() - started} ms`);
    await restartUnderLoad(pg, databaseUrl, token, handle.pool);
    await killMidBatch(databaseUrl, token, handle.pool);
    await killMidSave(databaseUrl, token, handle);
  } finally {
    await handle.pool.end().catch(() => {});
    await pg.server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${failures.length ? `${failures.length} check(s) failed` : "every check passed"}`);
  if (failures.length) {
    for (const failure of failures) log(`failed: ${failure}`);
    process.exitCode = 1;
  }
}

await main();
