/**
 * The managers' fault report (GET /api/v1/fault-events/report, db/queries/faults/report.ts) at scale: the demo
 * inventory and 10 million events over a year (fault-queries.ts generates them the same way), a job running on 64
 * dies through the whole period, then a 30-day report with comparison (totals, daily series, offenders, per-job time
 * lost, deltas), cold after a restart of PostgreSQL and the median of 5 warm runs; a 7-day, a 90-day and a 2-day
 * (hourly) report beside it. Prints figures; never asserts timings. `FAULT_BENCH_EVENTS` changes the 10M.
 *
 * Measured 2026-11-25 on the shared 2-CPU machine, load average 10–17 (numbers are inflated by other sessions): 30 days
 * 1,366 ms cold, 890 ms warm (of which the two periods' statistics 489 ms); 7 days 361 ms; 90 days 2.9 s; 2 days
 * hourly 1.15 s (hourly buckets read the period's events to cut them at every hour).
 * After the day rollups were summed per target before the union and both periods' reads ran at once (load 7.5–10):
 * 30 days 916 ms cold, 641 ms warm (statistics of both periods 358 ms); 7 days 375 ms; 90 days 2.35 s; 2 days hourly
 * 1.05 s. With servers and dies read in one pass and rollups rebuilt in day order as well (load 2.4–3.3): 30 days
 * 772 ms cold, 537 ms warm (statistics of both periods 201 ms); 7 days 237 ms; 90 days 1.82 s; 2 days hourly 570 ms.
 * What was left of the 30 days was mostly the two series' reads of the events crossing each day's edge (report-series.ts).
 * 2026-11-26, with the carries (fault_hour_carries) instead of those reads, load 31–34 (another run of 8 sessions):
 * 30 days 1,503 ms cold, 938 ms warm (statistics of both periods 504 ms, series of both 76 ms); 7 days 334 ms; 90 days
 * 3.19 s; 2 days hourly 326 ms. Old and new alternated on one database at load 18–27: 30 days warm 686–920 → 547–590
 * ms, its series 415–574 → 69–113 ms; shared buffers of both series 7,974 → 595, fault_events rows 2,988 → 0. The rest
 * is the statistics (4,700 buffers for both periods). `RANKSCOPE_BENCH_DATA_DIR=<dir>` keeps the database under
 * <dir>/report: the next run skips the generation (here 1,059 s) and the first build of the rollups (317 s).
 * 2026-11-26, with statistics on events' durations (migration 0021: no parallel workers for the statistics' ~120 edge
 * events), load 18–20: 30 days 560 ms cold, 388 ms warm (statistics of both periods 204 ms, series 65 ms); 7 days
 * 141 ms; 90 days 1.16 s; 2 days hourly 144 ms. Without and with alternated at load 14–16: 30 days warm 452/439 →
 * 425/367 ms. EXPLAIN of the statistics of both periods: Gathers 20 → 0, 4,450 buffers (3,200 of them the edge events,
 * read by each of the 10 queries again), 1,664 event rows.
 */
import os from "node:os";
import { getClusterOrThrow } from "@/db/queries/clusters";
import { faultStatistics, loadFaultReport, refreshFaultRollups, reportSeries } from "@/db/queries/faults";
import { withDemoDatabase } from "./demo-database";
import { generateEvents } from "./fault-queries";
import type { BenchSection } from "./index";

const day = 86_400_000;
const ms = (n: number) => `${n.toFixed(1)} ms`;
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export const reportBench: BenchSection = {
  name: "report",
  description: "the 30-day fault report with comparison (and 7, 90 and 2 days) over 10M events, cold and warm",
  run: () =>
    withDemoDatabase(6, async (database) => {
      console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; PostgreSQL embedded, default settings`);
      const cluster = await getClusterOrThrow(database.handle.db, "atlas-a3-demo");
      const total = Number(process.env.FAULT_BENCH_EVENTS ?? 10_000_000);
      const pool = database.handle.pool;
      // A kept database (RANKSCOPE_BENCH_DATA_DIR) already holding a complete run: the job is added last, 100 days
      // before the end the events were generated for.
      const { rows: kept } = await pool.query<{ end: Date }>(
        "select started_at + interval '100 days' as end from jobs where cluster_id = $1 and name = 'bench-job' and (select count(*) from fault_events) = $2",
        [cluster.id, total],
      );
      const end = kept[0]?.end.getTime() ?? Math.floor(Date.now() / day) * day;
      if (kept[0]) {
        console.log(`kept database (${database.server.dataDir}): ${total.toLocaleString("en-US")} events ending ${new Date(end).toISOString()}`);
        const began = performance.now();
        const hours = await refreshFaultRollups(pool, cluster.id);
        console.log(`stale rollups refreshed: ${hours.toLocaleString("en-US")} hours in ${((performance.now() - began) / 1000).toFixed(1)} s`);
      } else {
        if (database.reused) await pool.query("truncate fault_events, fault_rollup_dirty; delete from jobs where cluster_id = $1", [cluster.id]);
        await generateEvents(database.handle, cluster.id, total, end);
        const began = performance.now();
        const hours = await refreshFaultRollups(pool, cluster.id);
        console.log(`rollups built from scratch: ${hours.toLocaleString("en-US")} hours in ${((performance.now() - began) / 1000).toFixed(1)} s`);
        // A job on the first 64 dies, running since before the compared periods.
        const { rows } = await pool.query<{ id: number }>(
          `insert into jobs (cluster_id, name, namespace, state, source, started_at, placement) values ($1, 'bench-job', 'default', 'running', 'api', $2, '{}') returning id`,
          [cluster.id, new Date(end - 100 * day).toISOString()],
        );
        await pool.query(
          `insert into job_ranks (job_id, position, rank, die_key)
           select $1, row_number() over (order by d.id) - 1, row_number() over (order by d.id) - 1, s.server_id || '/' || d.device_id
           from devices d join servers s on s.id = d.server_ref where d.cluster_id = $2 order by d.id limit 64`,
          [rows[0]!.id, cluster.id],
        );
      }
      await database.handle.pool.query("vacuum analyze fault_hour_rollups, fault_hour_carries, fault_day_target_rollups, fault_day_code_rollups, fault_episode_parts, jobs, job_ranks");
      await database.restart();
      const periods: [string, number][] = [["30 days", 30], ["7 days", 7], ["90 days", 90], ["2 days (hourly)", 2]];
      for (const [name, days] of periods) {
        const times: number[] = [];
        let bytes = 0;
        let events = 0;
        let jobs = 0;
        for (let i = 0; i < 6; i++) {
          const t = performance.now();
          const report = await loadFaultReport(database.handle.pool, cluster, { from: end - days * day, to: end, compare: true }, end);
          times.push(performance.now() - t);
          bytes = JSON.stringify(report).length;
          events = report.current.events + (report.previous?.events ?? 0);
          jobs = report.jobs.length;
        }
        console.log(
          `report over ${name} with comparison: first ${ms(times[0]!)}${name === "30 days" ? " (cold: PostgreSQL just restarted)" : ""}, median of 5 more ${ms(median(times.slice(1)))}` +
            ` (${events.toLocaleString("en-US")} events in both periods, ${jobs} job(s), ${(bytes / 1024).toFixed(0)} kB of JSON)`,
        );
      }
      // How much of the 30-day report is the two periods' statistics (the statistics tab's query, all offenders listed).
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        for (const from of [end - 60 * day, end - 30 * day]) await faultStatistics(database.handle.pool, cluster, from, from + 30 * day, end, 1_000_000);
        times.push(performance.now() - t);
      }
      console.log(`of which the statistics of both 30-day periods: median of 5 ${ms(median(times))}`);
      // And the series of both (report-series.ts: rollups and carries, fault_events only for open events).
      const seriesTimes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await Promise.all([end - 60 * day, end - 30 * day].map((from) => reportSeries(database.handle.pool, cluster.id, from, from + 30 * day, end, day)));
        seriesTimes.push(performance.now() - t);
      }
      console.log(`the series of both 30-day periods, at once: median of 5 ${ms(median(seriesTimes))}`);
      console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    }, { keep: "report" }),
};
