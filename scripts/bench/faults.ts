/**
 * Fault events, on a throwaway embedded PostgreSQL holding the demo inventory:
 * - ingestion: events per second through the ingestion path of POST /api/v1/fault-events (JSON parse of the body,
 *   validation, target resolution, stable ids, one INSERT … unnest per batch, the escalation rules re-judged per
 *   series, audit entry and NOTIFY), in batches of 1,000, 4 requests at a time (the API's connection pool);
 *   compared with raw PostgreSQL COPY of the same rows into the same table. Authentication and HTTP framing are
 *   not included (they cost the same per request whatever the batch holds).
 * The timeline and statistics at 10 million events: scripts/bench/fault-queries.ts.
 * Prints figures; never asserts timings.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { systemActor } from "@/db/queries/audit";
import { findCluster, ingestFaultEvents } from "@/db/queries/faults";
import { seedDemo } from "@/db/seed";
import { serverName } from "@/lib/faults/simulate";
import type { BenchSection } from "./index";

const BATCH = 1000;
const BATCHES = 60;
const CONCURRENCY = 4;
const day = 86_400_000;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;

/**
 * Distinct events, as a collector replaying a month would send them: link downs (with the escalation rules to judge)
 * and HCCL errors on the 1,536 dies of the A3 demo, in time order, 43 s apart (60,000 over a month, about 20 per
 * die per day — far more than a healthy cluster sees).
 */
const spacingMs = (30 * day) / (BATCHES * BATCH);
function batchOf(index: number, start: number): unknown[] {
  const events: unknown[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = index * BATCH + i;
    const began = start + n * spacingMs;
    const hccl = n % 7 === 0;
    events.push({
      cluster: "atlas-a3-demo",
      kind: hccl ? "hccl-error" : "roce-link-down",
      source: "api",
      code: hccl ? "EI0002" : "81078603",
      ...(hccl ? { phase: "execution", job: "bench", rank: n % 1536 } : {}),
      target: { server: serverName((n >> 4) % 2, (n >> 5) % 48), die: n % 16 },
      beganAt: new Date(began).toISOString(),
      endedAt: new Date(began + 1000 + (n % 40) * 1000).toISOString(),
    });
  }
  return events;
}

async function ingestBench(handle: ReturnType<typeof connectDatabase>): Promise<number> {
  const start = Date.now() - 31 * day;
  const bodies = Array.from({ length: BATCHES }, (_, i) => JSON.stringify(batchOf(i, start)));
  // Warm-up (JIT, inventory index cache, plan cache), not counted.
  await ingestFaultEvents(handle, JSON.parse(JSON.stringify(batchOf(0, start - 40 * day))) as unknown[], { atomic: "all", actor: systemActor });
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const result = await ingestFaultEvents(handle, JSON.parse(body) as unknown[], { atomic: "all", actor: systemActor });
        if (result.counts.created !== BATCH) throw new Error(`batch not fully created: ${JSON.stringify(result.counts)}`);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const rate = (BATCHES * BATCH) / seconds;
  console.log(`ingestion path, batches of ${fmt(BATCH)} × ${BATCHES}, ${CONCURRENCY} at a time: ${fmt(rate)} events/s (${ms((seconds * 1000) / BATCHES * CONCURRENCY)} per batch)`);
  // Re-sending the same batch: nothing changes.
  const again = performance.now();
  const resent = await ingestFaultEvents(handle, JSON.parse(bodies[0]!) as unknown[], { atomic: "all", actor: systemActor });
  console.log(`re-sending a batch of ${fmt(BATCH)}: ${ms(performance.now() - again)}, unchanged ${resent.counts.unchanged}`);
  return rate;
}

async function copyBench(handle: ReturnType<typeof connectDatabase>, clusterId: number): Promise<number> {
  const rows = BATCHES * BATCH;
  const start = Date.now() - 60 * day;
  const lines: string[] = [];
  for (let n = 0; n < rows; n++) {
    const began = new Date(start + n * 50).toISOString();
    const ended = new Date(start + n * 50 + 5000).toISOString();
    const key = `die:${serverName((n >> 4) % 2, (n >> 5) % 48)}/${n % 16}`;
    lines.push([`copy-${n}`, clusterId, "die", key, `${key}|81078603`, "roce-link-down", "api", "81078603", "NotHandleFault", "NotHandleFault", "within-fault-timeout", `copy-${n}`, began, ended, '{"bench":true}'].join("\t") + "\n");
  }
  // Server-side COPY from a file (the embedded server runs on this machine as a superuser): PostgreSQL's own
  // fastest path, with no client in between.
  const file = path.join(os.tmpdir(), `rankscope-bench-copy-${process.pid}.tsv`);
  await writeFile(file, lines.join(""));
  await chmod(file, 0o644);
  try {
    const began = performance.now();
    await handle.pool.query(
      `copy fault_events (id, cluster_id, target_kind, target_key, series_key, kind, source, code, reported_level, level, rule, episode_id, began_at, ended_at, raw) from '${file}'`,
    );
    const rate = rows / ((performance.now() - began) / 1000);
    console.log(`raw COPY of ${fmt(rows)} rows into the same table and indexes: ${fmt(rate)} rows/s`);
    return rate;
  } finally {
    await rm(file, { force: true });
  }
}

export const faultsBench: BenchSection = {
  name: "faults",
  description: "fault ingestion (events/s in batches of 1,000 vs raw COPY)",
  async run() {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-bench-faults-"));
    const server = await startEmbeddedPostgres({ dataDir, persistent: false });
    const handle = connectDatabase(server.url(), { max: CONCURRENCY + 2 });
    try {
      await migrate(handle.pool);
      await seedDemo(handle.db);
      const cluster = (await findCluster(handle.pool, "atlas-a3-demo"))!;
      console.log(`machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL embedded, default settings`);
      const api = await ingestBench(handle);
      const copy = await copyBench(handle, cluster.id);
      console.log(`ingestion path / raw COPY: ${((api / copy) * 100).toFixed(0)} %`);
    } finally {
      await handle.pool.end();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
