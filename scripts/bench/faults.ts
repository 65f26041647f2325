/**
 * Fault ingestion, on a throwaway embedded PostgreSQL holding the demo inventory (scripts/bench/fault-ingest.ts):
 * events per second through POST /api/v1/fault-events over HTTP with an API token, in batches of 1,000, one request
 * at a time and 4 in flight, and the fraction of raw PostgreSQL COPY of the same rows that is; then with
 * `Prefer: respond-async`: the receipt, and the inbox judged a batch at a time and in groups (fault-ingest-async.ts).
 * The timeline, statistics and details-panel queries at 10 million events: scripts/bench/fault-queries.ts.
 * Prints figures; never asserts timings.
 */
import os from "node:os";
import { withDemoDatabase } from "./demo-database";
import { runIngestBench } from "./fault-ingest";
import type { BenchSection } from "./index";

export const faultsBench: BenchSection = {
  name: "faults",
  description: "fault ingestion through the API (events/s in batches of 1,000, judged at once and through the inbox) against raw COPY",
  run: () =>
    withDemoDatabase(4, async ({ handle, server }) => {
      console.log(`machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL embedded, default settings`);
      await runIngestBench(handle, server);
    }),
};
