/**
 * Fault events, on a throwaway embedded PostgreSQL holding the demo inventory:
 * - ingestion: events per second through the ingestion path of POST /api/v1/fault-events (JSON parse of the body,
 *   validation, target resolution, stable ids, one INSERT … unnest per batch, the escalation rules re-judged per
 *   series, audit entry and NOTIFY), in batches of 1,000, 4 requests at a time (the API's connection pool);
 *   compared with raw PostgreSQL COPY of the same rows into the same table. Authentication and HTTP framing are
 *   not included (they cost the same per request whatever the batch holds).
 * - timeline: GET /api/v1/fault-events's query (rows + density) and the statistics over a 30-day window with
 *   10 million events in the table (a year of them, generated with generate_series), cold and warm.
 * - the topology details panel's recent faults of a die, a server and a super pod (a week's window) at the same size.
 * Prints figures; never asserts timings. `FAULT_BENCH_EVENTS` changes the 10M; `FAULT_BENCH_SKIP_INGEST=1` runs the
 * query part only.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { systemActor } from "@/db/queries/audit";
import { findCluster, ingestFaultEvents } from "@/db/queries/faults";
import { faultStatistics, listTimeline } from "@/db/queries/faults-timeline";
import { findClusterHeader, recentNodeFaults, topologyIndex } from "@/db/queries/topology";
import { seedDemo } from "@/db/seed";
import { timelineQuerySchema } from "@/db/schema/fault-event/validation";
import { serverName } from "@/lib/faults/simulate";
import { faultScopeOf, recentFaultLimit, recentFaultWindowMs } from "@/lib/topology/details";
import type { NodeKind } from "@/lib/topology/model";
import type { BenchSection } from "./index";

const BATCH = 1000;
const BATCHES = 60;
const CONCURRENCY = 4;
const day = 86_400_000;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

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

async function generateEvents(handle: ReturnType<typeof connectDatabase>, clusterId: number, total: number, end: number): Promise<void> {
  const began = performance.now();
  const span = 365 * day;
  const step = span / total;
  // A year of events in time order (as they arrive), spread over the 1,536 dies; kinds and levels mixed.
  const chunk = 1_000_000;
  for (let offset = 0; offset < total; offset += chunk) {
    await handle.pool.query(
      `insert into fault_events (id, cluster_id, target_kind, target_key, series_key, server_ref, device_ref, super_pod_ref, kind, source, code,
         reported_level, level, rule, episode_id, began_at, ended_at, raw)
       select 'gen-' || g, $1, 'die', 'die:' || d.server_id || '/' || d.device_id, 'die:' || d.server_id || '/' || d.device_id || '|81078603',
         d.server_ref, d.id, d.super_pod_ref,
         (array['roce-link-down','gateway-probe-failure','hccl-error','npu-chip-fault'])[1 + g % 4]::fault_kind, 'simulator', '81078603',
         (array['NotHandleFault','PreSeparateNPU','RestartBusiness','SeparateNPU'])[1 + g % 4]::fault_level,
         (array['NotHandleFault','PreSeparateNPU','RestartBusiness','SeparateNPU'])[1 + g % 4]::fault_level,
         'reported', 'gen-' || g,
         to_timestamp(($2::bigint + g * $3::double precision) / 1000),
         to_timestamp(($2::bigint + g * $3::double precision) / 1000) + (g % 600) * interval '1 second',
         '{"generated":true}'::jsonb
       from generate_series($4::bigint, $5::bigint) g
       join (select dv.id, dv.device_id, dv.server_ref, s.server_id, s.super_pod_ref, row_number() over (order by dv.id) - 1 as i
             from devices dv join servers s on s.id = dv.server_ref where dv.cluster_id = $1) d on d.i = g % 1536`,
      [clusterId, end - span, step, offset, Math.min(total, offset + chunk) - 1],
    );
  }
  await handle.pool.query("vacuum analyze fault_events");
  console.log(`generated ${fmt(total)} events over a year in ${((performance.now() - began) / 1000).toFixed(0)} s`);
}

async function queryBench(handle: ReturnType<typeof connectDatabase>, end: number): Promise<void> {
  const cluster = (await findCluster(handle.pool, "atlas-a3-demo"))!;
  const window = { cluster: "atlas-a3-demo", from: end - 30 * day, to: end };
  const cases: [string, Record<string, unknown>][] = [
    ["30 days, no filter (first 20,000 rows + density + total)", {}],
    ["30 days, kind=hccl-error", { kind: ["hccl-error"] }],
    ["30 days, one server (target=sp0-node07/)", { target: "sp0-node07/" }],
    ["30 days, open events only", { state: "open" }],
  ];
  const { rows: size } = await handle.pool.query<{ table: string; brin: string; series: string }>(
    "select pg_size_pretty(pg_relation_size('fault_events')) as table, pg_size_pretty(pg_relation_size('fault_events_began_brin')) as brin, pg_size_pretty(pg_relation_size('fault_events_series')) as series",
  );
  console.log(`table ${size[0]!.table}, BRIN on began_at ${size[0]!.brin}, series btree ${size[0]!.series}`);
  for (const [label, extra] of cases) {
    const query = timelineQuerySchema.parse({ ...window, ...extra });
    const times: number[] = [];
    let shown = 0;
    let total = 0;
    for (let i = 0; i < 4; i++) {
      const began = performance.now();
      const result = await listTimeline(handle.pool, cluster, query, end);
      times.push(performance.now() - began);
      shown = result.events.length;
      total = result.total;
    }
    console.log(`timeline ${label}: first ${ms(times[0]!)}, median of the rest ${ms(median(times.slice(1)))} (${fmt(shown)} of ${fmt(total)} events)`);
  }
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const began = performance.now();
    await faultStatistics(handle.pool, cluster, window.from, window.to, end);
    times.push(performance.now() - began);
  }
  console.log(`statistics over 30 days: median ${ms(median(times))}`);

  const header = (await findClusterHeader(handle.db, "atlas-a3-demo"))!;
  const index = await topologyIndex(handle.db, header);
  const nodes: [NodeKind, string][] = [["die", "sp0-node07/d3"], ["server", "sp0-node07"], ["superpod", "1"]];
  for (const [kind, id] of nodes) {
    const scope = faultScopeOf(index, kind, id);
    const details: number[] = [];
    let total = 0;
    for (let i = 0; i < 4; i++) {
      const began = performance.now();
      total = (await recentNodeFaults(handle.pool, cluster.id, scope, end - recentFaultWindowMs, recentFaultLimit)).total;
      details.push(performance.now() - began);
    }
    console.log(`details panel, recent faults of ${kind} ${id} (7 days): first ${ms(details[0]!)}, median of the rest ${ms(median(details.slice(1)))} (${fmt(total)} events)`);
  }
}

export const faultsBench: BenchSection = {
  name: "faults",
  description: "fault ingestion (events/s in batches of 1,000 vs raw COPY) and the 30-day timeline query at 10M events",
  async run() {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "rankscope-bench-faults-"));
    const server = await startEmbeddedPostgres({ dataDir, persistent: false });
    const handle = connectDatabase(server.url(), { max: CONCURRENCY + 2 });
    try {
      await migrate(handle.pool);
      await seedDemo(handle.db);
      const cluster = (await findCluster(handle.pool, "atlas-a3-demo"))!;
      console.log(`machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL embedded, default settings`);
      if (process.env.FAULT_BENCH_SKIP_INGEST !== "1") {
        const api = await ingestBench(handle);
        const copy = await copyBench(handle, cluster.id);
        console.log(`ingestion path / raw COPY: ${((api / copy) * 100).toFixed(0)} %`);
        await handle.pool.query("delete from fault_events");
      }
      const total = Number(process.env.FAULT_BENCH_EVENTS ?? 10_000_000);
      const end = Date.now();
      await generateEvents(handle, cluster.id, total, end);
      await queryBench(handle, end);
    } finally {
      await handle.pool.end();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
