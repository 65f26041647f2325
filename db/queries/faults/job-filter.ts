import { dieKeyServerSql } from "../../schema";

/**
 * SQL over `fault_events f`: the event hit a die of the job, a link at one of its dies, or a server it runs on, while
 * the job ran (from its start to its end, or now). The dies are the placement's (job_ranks.die_key, the events' own
 * `<server>/<device>` key), so the match needs no inventory join and survives a re-imported inventory.
 * One arm per target kind, each a lookup: a die or a link end by its key (the die_key index), a server by the server
 * part of the job's dies (job_ranks_job_die_server). As one `exists` over the job's ranks with the arms or'ed (and a
 * `like` for the server) it read every rank of the job per event: 13–22 s for 5,000 events on a 16,384-rank job, 190 s
 * on a 100,000-rank one (issue 21), now under 0.1 s. The server arm was a set of the job's servers, hashed only while
 * it fit in hash memory: past that (a job on a whole SuperCluster; a 100,000-rank job with work_mem at 1 MB) every
 * server event read all the job's ranks, 46 s for a day of 5,000.
 */
export function hitsJobSql(job: string): string {
  const placed = `select 1 from job_ranks r where r.job_id = ${job} and r.die_key`;
  return `(exists (select 1 from jobs j where j.id = ${job} and j.cluster_id = f.cluster_id and j.started_at is not null
      and f.began_at <= coalesce(j.ended_at, now()) and (f.ended_at is null or f.ended_at >= j.started_at))
    and ((f.target_kind = 'die' and exists (${placed} = substr(f.target_key, 5)))
      or (f.target_kind = 'link' and exists (${placed} in (split_part(substr(f.target_key, 6), '~', 1), split_part(f.target_key, '~', 2))))
      or (f.target_kind = 'server' and exists (${placed} is not null and ${dieKeyServerSql("r.die_key")} = substr(f.target_key, 8)))))`;
}

/** The timeline's `job=<id>` filter (`job`: the id's placeholder): events that name the job, or that hit it by placement and time. */
export function jobFilterSql(job: string): string {
  return `(f.job = (select name from jobs where id = ${job}) or ${hitsJobSql(job)})`;
}

/**
 * The job an event hit, for the timeline's Job column when the event does not name one: the latest job running on
 * the event's die (or either end of its link) when it began, with the rank there. A lateral join of `fault_events f`.
 */
export const jobAtEventJoin = `left join lateral (
    select j.name as job_name, r.rank as job_rank from job_ranks r join jobs j on j.id = r.job_id
    where f.job is null and j.cluster_id = f.cluster_id and j.started_at <= f.began_at and (j.ended_at is null or j.ended_at >= f.began_at)
      and r.die_key = any(array[
        case when f.target_kind = 'die' then substr(f.target_key, 5) end,
        case when f.target_kind = 'link' then split_part(substr(f.target_key, 6), '~', 1) end,
        case when f.target_kind = 'link' then split_part(f.target_key, '~', 2) end])
    order by j.started_at desc limit 1) placed_job on true`;
