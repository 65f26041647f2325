/**
 * Fault ingestion, on a throwaway embedded PostgreSQL holding the demo inventory (scripts/bench/fault-ingest.ts):
 * events per second through POST /api/v1/fault-events over HTTP with an API token, in batches of 1,000, one request
 * at a time and 4 in flight, and the fraction of raw PostgreSQL COPY of the same rows that is.
 * The timeline, statistics and details-panel queries at 10 million events: scripts/bench/fault-queries.ts.
 * Prints figures; never asserts timings.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { seedDemo } from "@/db/seed";
import { runIngestBench } from "./fault-ingest";
import type { BenchSection } from "./index";

export const faultsBench: BenchSection = {
  name: "faults",
  description: "fault ingestion through the API (events/s in batches of 1,000) against raw COPY",
  async run() {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-bench-faults-"));
    const server = await startEmbeddedPostgres({ dataDir, persistent: false });
    const handle = connectDatabase(server.url(), { max: 4 });
    try {
      await migrate(handle.pool);
      await seedDemo(handle.db);
      console.log(`machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL embedded, default settings`);
      await runIngestBench(handle, server);
    } finally {
      await handle.pool.end();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
