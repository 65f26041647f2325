import type pg from "pg";
import { faultLevelInfo, type FaultLevel } from "@/lib/faults/levels";
import type { FaultKind } from "@/lib/faults/model";
import type { JobLoss, JobLossCause } from "@/lib/faults/report";
import { faultCost } from "@/lib/jobs/fault-cost";
import { dieKeyServerSql } from "../../schema";
import { hitsJobSql } from "./job-filter";
import { hourMs, SqlParams } from "./rollups";

const faultyLevels = (Object.keys(faultLevelInfo) as FaultLevel[]).filter((l) => faultLevelInfo[l].tone === "faulty");
/** The most jobs a report lists (those that ran in the period, the latest first, before ranking by time lost). */
const maxJobs = 200;

/**
 * What faults cost each job that ran in [from, to): its run inside the period, the wall-clock time of it under a
 * work-stopping fault (the job page's cost, lib/jobs/fault-cost.ts, over the events the timeline's job filter finds), and the faults
 * that caused it by kind and code. The most time lost first.
 */
export async function reportJobLosses(pool: pg.Pool, clusterId: number, from: number, to: number, now: number): Promise<JobLoss[]> {
  const { rows: jobs } = await pool.query<{ id: number; name: string; namespace: string; started: number; ended: number | null }>(
    `select id, name, namespace, (extract(epoch from started_at) * 1000)::float8 as started, (extract(epoch from ended_at) * 1000)::float8 as ended
     from jobs where cluster_id = $1 and started_at is not null and started_at < $3::timestamptz and (ended_at is null or ended_at > $2::timestamptz)
     order by started_at desc, id desc limit ${maxJobs}`,
    [clusterId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  const losses = await Promise.all(
    jobs.map(async (job): Promise<JobLoss> => {
      const runFrom = Math.max(job.started, from);
      const runTo = Math.max(runFrom, Math.min(job.ended ?? now, to, now));
      const p = new SqlParams();
      const [c, id, lo, hi, levels] = [p.add(clusterId), p.add(job.id), p.at(runFrom), p.at(runTo), p.add(faultyLevels)];
      const columns = `f.id, f.kind, f.code, f.level, (extract(epoch from f.began_at) * 1000)::float8 as began, (extract(epoch from f.ended_at) * 1000)::float8 as ended`;
      const inRun = `f.level = any(${levels}::fault_level[]) and f.began_at < ${hi} and (f.ended_at is null or f.ended_at > ${lo})`;
      // The timeline's job filter (job-filter.ts) over the events that began in the run, from the job's side: the
      // events on its dies and servers (by target key), on links at its dies (by either end) and naming it. The job's
      // dies and servers are streamed, not made distinct (a server's key comes once per die): the outer `union` drops
      // the repeated events, and sorting a 100,000-rank job's 200,000 keys was 0.4 s of every report (issue 21). The
      // open and long events that began before it are tested one by one with the timeline's placement filter (index
      // lookups; those naming the job are in their own arm): as a lookup in those 200,000 keys, too many to hash, a
      // day of 5,000 faulty events took 12 s.
      const hits = hitsJobSql(id);
      const { rows: events } = await pool.query<{ kind: FaultKind; code: string | null; level: FaultLevel; began: number; ended: number | null }>(
        `with ranks as (select die_key from job_ranks where job_id = ${id} and die_key is not null),
         keys as (select 'die:' || die_key as key from ranks union all select 'server:' || ${dieKeyServerSql("die_key")} from ranks)
         select ${columns} from keys k cross join lateral (select f.* from fault_events f
           where f.cluster_id = ${c} and f.target_key = k.key and f.began_at >= ${p.at(runFrom - hourMs)} and f.began_at < ${hi}) f where ${inRun}
         union select ${columns} from ranks r join fault_events f on f.cluster_id = ${c} and f.target_kind = 'link' and split_part(substr(f.target_key, 6), '~', 1) = r.die_key where ${inRun}
         union select ${columns} from ranks r join fault_events f on f.cluster_id = ${c} and f.target_kind = 'link' and split_part(f.target_key, '~', 2) = r.die_key where ${inRun}
         union select ${columns} from fault_events f where f.cluster_id = ${c} and f.job = (select name from jobs where id = ${id}) and ${inRun}
         union select ${columns} from fault_events f where f.cluster_id = ${c} and f.ended_at is null and ${inRun} and ${hits}
         union select ${columns} from fault_events f
           where f.cluster_id = ${c} and f.ended_at > ${lo} and f.ended_at - f.began_at >= interval '1 hour' and ${inRun} and ${hits}`,
        p.values,
      );
      const cost = faultCost(events.map((e) => ({ level: e.level, beganAt: e.began, endedAt: e.ended })), { startedAt: runFrom, endedAt: runTo }, now);
      const causes = new Map<string, JobLossCause>();
      for (const e of events) {
        const ms = Math.min(runTo, e.ended ?? now) - Math.max(runFrom, e.began);
        if (ms <= 0) continue;
        const key = `${e.kind}\u0000${e.code ?? ""}`;
        const cause = causes.get(key) ?? { kind: e.kind, code: e.code, events: 0, ms: 0 };
        cause.events += 1;
        cause.ms += ms;
        causes.set(key, cause);
      }
      return {
        id: job.id,
        name: job.name,
        namespace: job.namespace,
        runMs: cost.runMs,
        stoppedMs: cost.stoppedMs,
        stoppingEvents: cost.stoppingEvents,
        causes: [...causes.values()].sort((a, b) => b.ms - a.ms || b.events - a.events),
      };
    }),
  );
  return losses.sort((a, b) => b.stoppedMs - a.stoppedMs || b.runMs - a.runMs || a.id - b.id);
}
