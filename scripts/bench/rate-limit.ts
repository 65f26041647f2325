/**
 * The shared rate limiter's cost (db/queries/rate-limits.ts): one upsert per token-authenticated write or sign-in.
 * Fault ingestion at 20,000 events/s in batches of 1,000 is 20 hits a second on one key; this measures how many a
 * second one key and many keys take, from two pools standing for two instances, on TEST_DATABASE_URL's server (or
 * an embedded one). It prints, never asserts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { hitRateLimit } from "@/db/queries/rate-limits";
import { throwawayDatabase } from "../throwaway-database";
import type { BenchSection } from "./index";

const HITS = 4_000;

async function database(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const { env, cleanup } = await throwawayDatabase("rankscope_bench_limits");
    return { url: env.DATABASE_URL!, cleanup };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-bench-pg-"));
  const server = await startEmbeddedPostgres({ dataDir, persistent: false });
  return { url: server.url(), cleanup: async () => (await server.stop(), await rm(dataDir, { recursive: true, force: true })) };
}

export const rateLimitBench: BenchSection = {
  name: "rate-limit",
  description: `the shared rate limiter: ${HITS.toLocaleString("en")} hits from two pools (two instances)`,
  async run() {
    const { url, cleanup } = await database();
    const one = connectDatabase(url, { max: 4 });
    const two = connectDatabase(url, { max: 4 });
    try {
      await migrate(one.pool);
      const cases: [string, number, (i: number) => string][] = [
        ["one key, one caller at a time", 1, () => "bench:token:1"],
        ["one key, 8 callers at once", 8, () => "bench:token:2"],
        ["4,000 keys, 8 callers at once", 8, (i) => `bench:ip:${i}`],
      ];
      for (const [label, callers, key] of cases) {
        let next = 0;
        const latencies: number[] = [];
        const started = performance.now();
        await Promise.all(
          Array.from({ length: callers }, async (_, c) => {
            for (let i = next++; i < HITS; i = next++) {
              const t = performance.now();
              await hitRateLimit((c % 2 ? two : one).db, key(i), 60_000);
              latencies.push(performance.now() - t);
            }
          }),
        );
        const seconds = (performance.now() - started) / 1000;
        latencies.sort((a, b) => a - b);
        const p = (q: number) => latencies[Math.floor(q * (latencies.length - 1))]!.toFixed(2);
        console.log(`${label.padEnd(32)} ${Math.round(HITS / seconds).toLocaleString("en").padStart(7)} hits/s  p50 ${p(0.5)} ms  p99 ${p(0.99)} ms`);
      }
      console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    } finally {
      await Promise.all([one.pool.end(), two.pool.end()]);
      await cleanup();
    }
  },
};
