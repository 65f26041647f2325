/**
 * Fault ingestion, through the API as a feeder sends it: POST /api/v1/fault-events with an API token, batches of
 * 1,000 distinct events, to the real route handler (scripts/bench/fault-ingest-server.ts) in its own process over
 * HTTP; first one request at a time (a single feeder), then 2 and 4 in flight (a feeder with parallel senders, or several
 * feeders). Compared with raw PostgreSQL COPY of exactly the rows the API wrote, into the same table and indexes.
 * Besides events per second (wall clock, which other work on the machine lowers), it prints the CPU each side spent
 * per 1,000 events (route process, PostgreSQL; much less sensitive to that load) and the rate it would allow.
 * Then the same batches posted with `Prefer: respond-async` and judged from the inbox (fault-ingest-async.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { DatabaseHandle } from "@/db/client";
import { freePort, type EmbeddedServer } from "@/db/embedded";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { serverName } from "@/lib/faults/simulate";
import { postgresCpuMs, processTicks, ticksPerSecond } from "../proc-stats";
import { serverNodeFlags } from "../server-node-flags";
import { asyncBatches, runAsyncIngestBench, sendInFlight } from "./fault-ingest-async";
import { loadAverage, ms, spread } from "./percentiles";

const BATCH = 1000;
const WARM_UP_BATCHES = 5;
const SINGLE_BATCHES = 20;
const CONCURRENT_BATCHES = 40;
/** Parallel senders: as many as the cores, and twice that. */
const CONCURRENCY = [2, 4] as const;
const day = 86_400_000;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * Distinct events, as a collector replaying history would send them: link downs (with the escalation rules to judge)
 * and HCCL errors on the 1,536 dies of the A3 demo, in time order, 40 s apart (about 1.4 per die per day) and ending a
 * day ago: 105,000 events over seven weeks. FAULT_BENCH_SPACING_MS=50 packs them as the load bench does (a die's
 * series then holds every event of the last day, which each batch's judgement reads).
 */
const spacingMs = Number(process.env.FAULT_BENCH_SPACING_MS ?? 40_000);
const totalBatches = WARM_UP_BATCHES + SINGLE_BATCHES + CONCURRENT_BATCHES * CONCURRENCY.length + asyncBatches;
export function batchOf(index: number, start: number, spacing = spacingMs): unknown[] {
  const events: unknown[] = [];
  for (let i = 0; i < BATCH; i++) {
    const n = index * BATCH + i;
    const began = start + n * spacing;
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

interface CpuMeter {
  read(): Promise<{ route: number; postgres: number; feeder: number } | null>;
}

function cpuMeter(routePid: number, dataDir: string): CpuMeter {
  return {
    async read() {
      if (process.platform !== "linux") return null;
      const usage = process.cpuUsage();
      return { route: ((await processTicks(routePid)) * 1000) / ticksPerSecond, postgres: await postgresCpuMs(dataDir), feeder: (usage.user + usage.system) / 1000 };
    },
  };
}

/** Starts the route handler's server in its own process (see fault-ingest-server.ts). */
async function startRouteServer(databaseUrl: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  // FAULT_BENCH_CPU_PROFILE=<dir> writes the route process's V8 CPU profile there (open it in Chrome DevTools).
  const profile = process.env.FAULT_BENCH_CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.FAULT_BENCH_CPU_PROFILE}`] : [];
  const child = spawn(process.execPath, [...serverNodeFlags, ...profile, "--conditions=react-server", "--import", "tsx", "scripts/bench/fault-ingest-server.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
    // The passes with requests in flight measure concurrent ingestion: the instance's bound (1 by default) would queue them;
    // the async passes store 40 batches before judging them, past the inbox's default depth.
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), RANKSCOPE_INGEST_CONCURRENCY: String(Math.max(...CONCURRENCY)), RANKSCOPE_INGEST_EVENTS_PER_SECOND: "0", RANKSCOPE_INBOX_EVENTS_PER_SECOND: "0", RANKSCOPE_INBOX_MAX_EVENTS: "1000000" },
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bench's route server exited (${code})`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line === "listening") resolve();
    });
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

interface Pass {
  batches: number;
  concurrency: number;
}

/**
 * Ingestion through the API, single-stream and concurrent, then a re-sent batch, then raw COPY of the same rows.
 * Prints the figures; never asserts timings.
 */
export async function runIngestBench(handle: DatabaseHandle, postgres: EmbeddedServer): Promise<void> {
  const { token } = await createApiToken(handle.db, { name: "ingest bench", role: "editor" }, systemActor);
  const { base, child } = await startRouteServer(postgres.url());
  const meter = cpuMeter(child.pid!, postgres.dataDir);
  try {
    const start = Date.now() - day - totalBatches * BATCH * spacingMs;
    let nextBatch = 0;
    const post = async (body: string): Promise<{ created: number; unchanged: number }> => {
      const response = await fetch(`${base}/api/v1/fault-events?atomic=all`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body,
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST /api/v1/fault-events answered ${response.status}: ${text.slice(0, 500)}`);
      return (JSON.parse(text) as { counts: { created: number; unchanged: number } }).counts;
    };
    const run = async ({ batches, concurrency }: Pass) => {
      // Bodies are made before the clock starts: the feeder's own cost is not the API's.
      const bodies = Array.from({ length: batches }, () => JSON.stringify(batchOf(nextBatch++, start)));
      const cpuBefore = await meter.read();
      const began = performance.now();
      const latencies = await sendInFlight(bodies, concurrency, async (body) => {
        const counts = await post(body);
        if (counts.created !== BATCH) throw new Error(`a batch was not fully created: ${JSON.stringify(counts)}`);
      });
      const seconds = (performance.now() - began) / 1000;
      const cpuAfter = await meter.read();
      const events = batches * BATCH;
      let cpu = "";
      if (cpuBefore && cpuAfter) {
        const per1000 = (ms: number) => (ms * BATCH) / events;
        const route = per1000(cpuAfter.route - cpuBefore.route);
        const postgres = per1000(cpuAfter.postgres - cpuBefore.postgres);
        // What that CPU alone would allow on an otherwise idle machine (waits and the feeder aside): one request at a
        // time runs its steps one after the other, so it has one core's worth; in flight, all the cores.
        const cores = Math.min(concurrency, os.cpus().length);
        const ceiling = (cores * 1000 * BATCH) / (route + postgres);
        cpu = `; CPU per 1,000 events: route process ${fmt(route)} ms, PostgreSQL ${fmt(postgres)} ms, feeder ${fmt(per1000(cpuAfter.feeder - cpuBefore.feeder))} ms: at most ${fmt(ceiling)} events/s on ${cores} idle core${cores === 1 ? "" : "s"}`;
      }
      const { p50, p95 } = spread(latencies);
      return { rate: events / seconds, detail: `${fmt(events / seconds)} events/s (batch p50 ${ms(p50)}, p95 ${ms(p95)}${cpu}; load average ${loadAverage()})`, bodies };
    };

    console.log(`load average before: ${loadAverage()} (other work on the machine lowers the events/s, not the CPU per event)`);
    await run({ batches: WARM_UP_BATCHES, concurrency: 1 });
    const single = await run({ batches: SINGLE_BATCHES, concurrency: 1 });
    console.log(`API ingestion (HTTP POST /api/v1/fault-events, token auth, route handler), batches of ${fmt(BATCH)}, 1 request at a time, ${SINGLE_BATCHES} batches: ${single.detail}`);
    const concurrent: { concurrency: number; rate: number }[] = [];
    let sent: string | undefined;
    for (const concurrency of CONCURRENCY) {
      const result = await run({ batches: CONCURRENT_BATCHES, concurrency });
      console.log(`API ingestion, ${concurrency} requests in flight, ${CONCURRENT_BATCHES} batches: ${result.detail}`);
      concurrent.push({ concurrency, rate: result.rate });
      sent ??= result.bodies[0];
    }
    const again = performance.now();
    const resent = await post(sent!);
    console.log(`re-sending a batch of ${fmt(BATCH)}: ${fmt(performance.now() - again)} ms, unchanged ${resent.unchanged}, created ${resent.created}`);
    await runAsyncIngestBench({ handle, base, token, cpu: () => meter.read(), body: () => JSON.stringify(batchOf(nextBatch++, start)) });

    const copy = await copyBench(handle, postgres, meter);
    const share = (rate: number) => `${((rate / copy) * 100).toFixed(0)} %`;
    console.log(`API / raw COPY: single stream ${share(single.rate)}, ${concurrent.map((c) => `${c.concurrency} in flight ${share(c.rate)}`).join(", ")}`);
  } finally {
    child.kill("SIGTERM");
  }
}

/**
 * Raw COPY of the rows the API wrote (same columns, payloads and index keys; new ids), server-side from a file:
 * PostgreSQL's own fastest path, with no client in between (the embedded server runs here as a superuser).
 */
async function copyBench(handle: DatabaseHandle, postgres: EmbeddedServer, meter: CpuMeter): Promise<number> {
  const file = path.join(os.tmpdir(), `rankscope-bench-copy-${process.pid}.tsv`);
  const columns = `cluster_id, target_kind, target_key, series_key, super_pod_ref, server_ref, npu_index, device_ref, peer_device_ref, kind, source,
    code, phase, reported_level, level, rule, rule_at, release_at, episode_id, began_at, ended_at, job, rank_table, rank, message, raw`;
  try {
    const { rowCount } = await handle.pool.query(`copy (select 'copy-' || id, ${columns} from fault_events where source = 'api') to '${file}'`);
    const cpuBefore = await meter.read();
    const began = performance.now();
    await handle.pool.query(`copy fault_events (id, ${columns}) from '${file}'`);
    const seconds = (performance.now() - began) / 1000;
    const cpuAfter = await meter.read();
    const rows = rowCount ?? 0;
    const cpu = cpuBefore && cpuAfter ? `; PostgreSQL CPU per 1,000 rows ${fmt(((cpuAfter.postgres - cpuBefore.postgres) * 1000) / rows)} ms` : "";
    console.log(`raw COPY of the ${fmt(rows)} rows the API wrote, into the same table and indexes: ${fmt(rows / seconds)} rows/s${cpu}`);
    return rows / seconds;
  } finally {
    await rm(file, { force: true });
  }
}
