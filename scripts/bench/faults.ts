/**
 * Fault events, on a throwaway embedded PostgreSQL holding the demo inventory:
 * - ingestion (scripts/bench/fault-ingest.ts): events per second through POST /api/v1/fault-events over HTTP with
 *   an API token, in batches of 1,000, one request at a time and 4 in flight, and the fraction of raw PostgreSQL
 *   COPY of the same rows that is.
 * - timeline: GET /api/v1/fault-events's query (rows + density) and the statistics over a 30-day window with
 *   10 million events in the table (a year of them, generated with generate_series), cold and warm.
 * - the topology details panel's recent faults of a die, a server and a super pod (a week's window) at the same size.
 * Prints figures; never asserts timings. `FAULT_BENCH_EVENTS` changes the 10M; `FAULT_BENCH_SKIP_INGEST=1` runs the
 * query part only.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "@/db/client";
import { startEmbeddedPostgres } from "@/db/embedded";
import { migrate } from "@/db/migrate";
import { findCluster } from "@/db/queries/faults";
import { faultStatistics, listTimeline } from "@/db/queries/faults-timeline";
import { findClusterHeader, recentNodeFaults, topologyIndex } from "@/db/queries/topology";
import { seedDemo } from "@/db/seed";
import { timelineQuerySchema } from "@/db/schema/fault-event/validation";
import { faultScopeOf, recentFaultLimit, recentFaultWindowMs } from "@/lib/topology/details";
import type { NodeKind } from "@/lib/topology/model";
import { runIngestBench } from "./fault-ingest";
import type { BenchSection } from "./index";

const day = 86_400_000;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
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
    const handle = connectDatabase(server.url(), { max: 4 });
    try {
      await migrate(handle.pool);
      await seedDemo(handle.db);
      const cluster = (await findCluster(handle.pool, "atlas-a3-demo"))!;
      console.log(`machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL embedded, default settings`);
      if (process.env.FAULT_BENCH_SKIP_INGEST !== "1") {
        await runIngestBench(handle, server);
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
