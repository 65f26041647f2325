/**
 * Fault queries at scale, on a throwaway embedded PostgreSQL holding the demo inventory and 10 million events over a
 * year (generated in the database, in time order, as they arrive):
 * - the rollups' first build (what migration 0005 leaves for the first reads of an existing table);
 * - GET /api/v1/fault-events's timeline (rows + density + total) and the statistics over a 30-day window, the first
 *   run after a restart of PostgreSQL with its caches dropped as far as it can (cold), then the median of 5 (warm);
 * - what the rollups cost around ingestion: inserting batches of 1,000 events with and without the trigger that marks
 *   stale hours, and the refresh (and statistics) after such a batch.
 * Prints figures; never asserts timings. `FAULT_BENCH_EVENTS` changes the 10M.
 */
import os from "node:os";
import type { DatabaseHandle } from "@/db/client";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultStatistics, listTimeline, refreshFaultRollups } from "@/db/queries/faults";
import { recentNodeFaults } from "@/db/queries/node-details";
import { topologyIndex } from "@/db/queries/topology";
import { timelineQuerySchema } from "@/db/schema/fault-event/validation";
import { faultScopeOf, recentFaultLimit, recentFaultWindowMs } from "@/lib/topology/details";
import type { ClusterHeader } from "@/lib/topology/inventory-index";
import type { NodeKind } from "@/lib/topology/model";
import { withDemoDatabase } from "./demo-database";
import type { BenchSection } from "./index";
import { median } from "./percentiles";

const day = 86_400_000;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
const seconds = (n: number) => `${(n / 1000).toFixed(1)} s`;
async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const began = performance.now();
  const result = await work();
  return [performance.now() - began, result];
}

/**
 * Events `first`…`last` of `total` spread evenly over [end − span, end], round-robin over the 1,536 dies of the A3
 * demo; kinds and levels mixed, durations up to 10 minutes. Stored in time order, as they arrive: without the
 * `order by` a hash join may store them grouped by die, which widens every BRIN range to weeks.
 */
function insertGenerated(handle: DatabaseHandle, clusterId: number, first: number, last: number, total: number, end: number, span: number, prefix: string) {
  return handle.pool.query(
    `insert into fault_events (id, cluster_id, target_kind, target_key, series_key, server_ref, device_ref, super_pod_ref, kind, source, code,
       reported_level, level, rule, episode_id, began_at, ended_at, raw)
     select $6 || g, $1, 'die', 'die:' || d.server_id || '/' || d.device_id, 'die:' || d.server_id || '/' || d.device_id || '|81078603',
       d.server_ref, d.id, d.super_pod_ref,
       (array['roce-link-down','gateway-probe-failure','hccl-error','npu-chip-fault'])[1 + g % 4]::fault_kind, 'simulator', '81078603',
       (array['NotHandleFault','PreSeparateNPU','RestartBusiness','SeparateNPU'])[1 + g % 4]::fault_level,
       (array['NotHandleFault','PreSeparateNPU','RestartBusiness','SeparateNPU'])[1 + g % 4]::fault_level,
       'reported', $6 || g,
       to_timestamp(($2::bigint + g * $3::double precision) / 1000),
       to_timestamp(($2::bigint + g * $3::double precision) / 1000) + (g % 600) * interval '1 second',
       '{"generated":true}'::jsonb
     from generate_series($4::bigint, $5::bigint) g
     join (select dv.id, dv.device_id, dv.server_ref, s.server_id, s.super_pod_ref, row_number() over (order by dv.id) - 1 as i
           from devices dv join servers s on s.id = dv.server_ref where dv.cluster_id = $1) d on d.i = g % 1536
     order by g`,
    [clusterId, end - span, span / total, first, last, prefix],
  );
}

/** `total` generated events over the year before `end` (see insertGenerated), then VACUUM ANALYZE. */
export async function generateEvents(handle: DatabaseHandle, clusterId: number, total: number, end: number): Promise<void> {
  const began = performance.now();
  const chunk = 1_000_000;
  for (let offset = 0; offset < total; offset += chunk) {
    await insertGenerated(handle, clusterId, offset, Math.min(total, offset + chunk) - 1, total, end, 365 * day, "gen-");
  }
  await handle.pool.query("vacuum analyze fault_events");
  console.log(`generated ${fmt(total)} events over a year in ${seconds(performance.now() - began)}`);
}

/** Each query 6 times: the first (cold for the first case: PostgreSQL was just restarted), then the median of the rest. */
async function queryTimes(handle: DatabaseHandle, cluster: ClusterHeader, end: number): Promise<void> {
  const window = { cluster: cluster.slug, from: end - 30 * day, to: end };
  const cases: [string, Record<string, unknown>][] = [
    ["no filter (first 20,000 rows + density + total)", {}],
    ["kind=hccl-error", { kind: ["hccl-error"] }],
    ["one server (target=sp0-node07: its own, NPU, die and link events)", { target: "sp0-node07" }],
    ["one die (target=sp0-node07/5, links at it included)", { target: "sp0-node07/5" }],
    ["a substring of target keys (target=node07/1)", { target: "node07/1" }],
    ["open events only", { state: "open" }],
  ];
  for (const [name, extra] of cases) {
    const query = timelineQuerySchema.parse({ ...window, ...extra });
    const times: number[] = [];
    let shown = 0;
    let total = 0;
    for (let i = 0; i < 6; i++) {
      const [time, result] = await timed(() => listTimeline(handle.pool, cluster, query, end));
      times.push(time);
      shown = result.events.length;
      total = result.total;
    }
    console.log(`timeline 30 days, ${name}: first ${ms(times[0]!)}, median of 5 more ${ms(median(times.slice(1)))} (${fmt(shown)} of ${fmt(total)} events)`);
  }
  const times: number[] = [];
  for (let i = 0; i < 6; i++) times.push((await timed(() => faultStatistics(handle.pool, cluster, window.from, window.to, end)))[0]);
  console.log(`statistics over 30 days: first ${ms(times[0]!)}, median of 5 more ${ms(median(times.slice(1)))}`);
}

/** The topology details panel's recent faults (a week's window) of a die, a server and a super pod. */
async function detailsPanelTimes(handle: DatabaseHandle, cluster: ClusterHeader, end: number): Promise<void> {
  const index = await topologyIndex(handle.db, cluster);
  const nodes: [NodeKind, string][] = [["die", "sp0-node07/d3"], ["server", "sp0-node07"], ["superpod", "1"]];
  for (const [kind, id] of nodes) {
    const scope = faultScopeOf(index, kind, id);
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 6; i++) {
      const [time, result] = await timed(() => recentNodeFaults(handle.pool, cluster.id, scope, end - recentFaultWindowMs, recentFaultLimit));
      times.push(time);
      total = result.total;
    }
    console.log(`details panel, recent faults of ${kind} ${id} (7 days): first ${ms(times[0]!)}, median of 5 more ${ms(median(times.slice(1)))} (${fmt(total)} events)`);
  }
}

/**
 * Inserting batches of 1,000 events in the current hour with and without the trigger that marks stale hours,
 * alternately (so load on the machine hits both alike).
 */
async function ingestionCost(handle: DatabaseHandle, cluster: ClusterHeader, end: number): Promise<void> {
  const batches = 20;
  const times = { plain: [] as number[], marked: [] as number[] };
  for (let b = 0; b < batches; b++) {
    const first = b * 1000;
    await handle.pool.query("alter table fault_events disable trigger fault_events_rollups_insert");
    times.plain.push((await timed(() => insertGenerated(handle, cluster.id, first, first + 999, batches * 1000, end, 30 * 60_000, "bench-plain-")))[0]);
    await handle.pool.query("alter table fault_events enable trigger fault_events_rollups_insert");
    times.marked.push((await timed(() => insertGenerated(handle, cluster.id, first, first + 999, batches * 1000, end, 30 * 60_000, "bench-marked-")))[0]);
  }
  console.log(`inserting a batch of 1,000 events: median ${ms(median(times.plain))} without the stale-hour trigger, ${ms(median(times.marked))} with it (${batches} of each, alternately)`);
  // The plain batches were not marked: mark their hours as the trigger would have.
  await handle.pool.query(
    `insert into fault_rollup_dirty (cluster_id, hour)
     select distinct cluster_id, date_bin('1 hour', began_at, timestamptz '2000-01-01 00:00:00+00') from fault_events where cluster_id = $1 and began_at >= $2::timestamptz`,
    [cluster.id, new Date(end - 30 * 60_000).toISOString()],
  );
  const [refresh, hours] = await timed(() => refreshFaultRollups(handle.pool, cluster.id));
  console.log(`rollup refresh after ${fmt(2 * batches * 1000)} new events (${hours} stale hour(s) and their day): ${ms(refresh)}`);
  // Late events into hours already rolled up: the next read recomputes those hours first.
  await insertGenerated(handle, cluster.id, 0, 999, 1000, end, 6 * 3_600_000, "bench-late-");
  const [stats] = await timed(() => faultStatistics(handle.pool, cluster, end - 30 * day, end, end));
  console.log(`statistics over 30 days right after 1,000 late events spread over the last 6 hours (their refresh included): ${ms(stats)}`);
}

export const faultQueriesBench: BenchSection = {
  name: "fault-queries",
  description: "the 30-day fault timeline and statistics and the details panel's recent faults at 10M events, and what the rollups cost",
  run: () =>
    withDemoDatabase(6, async (database) => {
      const { handle } = database;
      console.log(`machine: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL embedded, default settings`);
      const cluster = await getClusterOrThrow(handle.db, "atlas-a3-demo");
      const total = Number(process.env.FAULT_BENCH_EVENTS ?? 10_000_000);
      const end = Date.now();
      await generateEvents(handle, cluster.id, total, end);
      const [build, hours] = await timed(() => refreshFaultRollups(handle.pool, cluster.id));
      await handle.pool.query("vacuum analyze fault_hour_rollups, fault_hour_carries, fault_day_target_rollups, fault_episode_parts");
      const { rows: sizes } = await handle.pool.query<{ table: string; brin: string; rollups: string; n: string }>(
        `select pg_size_pretty(pg_relation_size('fault_events')) as table, pg_size_pretty(pg_relation_size('fault_events_began_brin')) as brin,
           pg_size_pretty(pg_total_relation_size('fault_hour_rollups') + pg_total_relation_size('fault_hour_carries') + pg_total_relation_size('fault_day_target_rollups') + pg_total_relation_size('fault_episode_parts')) as rollups,
           (select count(*) from fault_hour_rollups) + (select count(*) from fault_day_target_rollups) as n`,
      );
      console.log(`rollups built from scratch: ${fmt(hours)} hours in ${seconds(build)}; ${fmt(Number(sizes[0]!.n))} rollup rows, ${sizes[0]!.rollups} (table ${sizes[0]!.table}, BRIN ${sizes[0]!.brin})`);
      // Cold: a restarted server (empty shared buffers; the OS page cache is not ours to drop).
      await database.restart();
      await queryTimes(database.handle, cluster, end);
      await detailsPanelTimes(database.handle, cluster, end);
      await ingestionCost(database.handle, cluster, end);
    }),
};
