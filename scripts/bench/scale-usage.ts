/**
 * What the scale bench (./scale.ts) puts on a cluster besides its inventory, in a process of its own:
 * `tsx scripts/bench/scale-usage.ts DATABASE_URL SLUG RANKS FAULTS`.
 * - Faults spread over the cluster: FAULTS link-down events on dies picked evenly across every super pod, over the
 *   last day (a third still open), through the API's ingestion in batches of 1,000; for the timeline and statistics.
 * - The large job (issue 21: "the job page for a job on 100,000 ranks"): a "1.0" rank table over the cluster's first
 * RANKS dies (server_list order, one rank per die, as the API takes it: compact JSON), creates the job from it as
 * `POST /api/v1/jobs` does after reading the body (parse, place, store every rank, answer the summary), and prints
 * the figures as one JSON line; the same table is saved as a rank table of the cluster. The probe (./scale-probe.ts)
 * then times the job page's loaders, the rank-table list and the table's detail.
 */
import { sql } from "drizzle-orm";
import { connectDatabase } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { ingestFaultEvents } from "@/db/queries/faults";
import { createJob } from "@/db/queries/jobs";
import { jobBodyLimit } from "@/db/schema/job/constants";
import { createRankTable } from "@/db/queries/rank-table-saves";
import { SCALE_JOB_NAME, SCALE_TABLE_NAME } from "./scale-views";

const [url, slug, ranksArg, faultsArg] = process.argv.slice(2);
const wanted = Number(ranksArg);
const faults = Number(faultsArg ?? 0);
const handle = connectDatabase(url!, { max: 2 });

/** FAULTS events on dies spread evenly over the cluster (every n-th die in inventory order), over the last day. */
async function seedFaults(): Promise<Record<string, number>> {
  const { rows } = await handle.db.execute<{ server_id: string; device_id: number }>(sql`
    with all_dies as (select s.server_id, d.device_id, row_number() over (order by s.position, d.device_id) as n, count(*) over () as total
      from devices d join servers s on s.id = d.server_ref join clusters c on c.id = d.cluster_id where c.slug = ${slug!})
    select server_id, device_id from all_dies where n % greatest(1, total / ${faults}) = 0 limit ${faults}`);
  const now = Date.now();
  const day = 86_400_000;
  const events = rows.map((row, i) => {
    const began = now - day + Math.floor((i / rows.length) * (day - 600_000));
    return {
      // Fault event ids are global: each cluster its own.
      id: `${slug}-${i}`,
      cluster: slug!,
      kind: "roce-link-down",
      code: "81078603",
      source: "simulator",
      target: { server: row.server_id, die: row.device_id },
      beganAt: new Date(began).toISOString(),
      ...(i % 3 === 0 ? {} : { endedAt: new Date(began + 5_000 + (i % 50) * 1_000).toISOString() }),
    };
  });
  const started = performance.now();
  let created = 0;
  for (let i = 0; i < events.length; i += 1000) created += (await ingestFaultEvents(handle, events.slice(i, i + 1000), { atomic: "item", actor: systemActor, now })).counts.created;
  return { "faults: events stored": created, "faults: ingest (ms)": performance.now() - started };
}

try {
  const faultFigures = faults > 0 ? await seedFaults() : {};
  const { rows } = await handle.db.execute<{ server_id: string; device_id: number; device_ip: string | null }>(sql`
    select s.server_id, d.device_id, host(d.device_ip) as device_ip from devices d join servers s on s.id = d.server_ref
    join clusters c on c.id = d.cluster_id where c.slug = ${slug!} order by s.position, d.device_id limit ${wanted}`);
  const servers = new Map<string, { device_id: string; device_ip?: string; rank_id: string }[]>();
  rows.forEach((row, rank) => {
    let list = servers.get(row.server_id);
    if (!list) servers.set(row.server_id, (list = []));
    list.push({ device_id: String(row.device_id), ...(row.device_ip ? { device_ip: row.device_ip } : {}), rank_id: String(rank) });
  });
  const table = JSON.stringify({ status: "completed", version: "1.0", server_count: String(servers.size), server_list: [...servers].map(([server_id, device]) => ({ server_id, device })) });
  const body = JSON.stringify({ cluster: slug, name: SCALE_JOB_NAME, state: "running", rankTable: table });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const job = await createJob(handle, { cluster: slug!, name: SCALE_JOB_NAME, state: "running", rankTable: table }, systemActor);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  // The same table saved as a rank table of the cluster (POST /api/v1/rank-tables), for the list and its detail.
  const { rows: cluster } = await handle.db.execute<{ id: number }>(sql`select id from clusters where slug = ${slug!}`);
  const saveStarted = performance.now();
  await createRankTable(handle.db, { name: SCALE_TABLE_NAME, clusterId: cluster[0]!.id, text: table }, systemActor);
  const saveMs = performance.now() - saveStarted;
  process.stdout.write(
    `${JSON.stringify({
      "rank table: save the job's table (ms)": saveMs,
      ...faultFigures,
      "job: ranks": job.counts.total,
      "job: placed": job.counts.placed,
      "job: POST body, compact 1.0 (MB)": Buffer.byteLength(body) / 2 ** 20,
      "job: POST body limit (MB)": jobBodyLimit / 2 ** 20,
      "job: create, parse + place + store (ms)": ms,
      "job: create, CPU of the server (ms)": (used.user + used.system) / 1000,
      "job: create, server RSS after (MB)": Math.round(process.memoryUsage().rss / 2 ** 20),
    })}\n`,
  );
} finally {
  await handle.pool.end();
}
