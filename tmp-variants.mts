import { withDemoDatabase } from "./scripts/bench/demo-database.ts";
import { batchOf } from "./scripts/bench/fault-ingest.ts";
import { ingestFaultEvents } from "./db/queries/faults/index.ts";
import { loadSeries } from "./db/queries/faults/history.ts";
import { prepareBatch } from "./db/queries/faults/prepare.ts";
import { systemActor } from "./db/queries/audit.ts";
import { postgresCpuMs } from "./scripts/proc-stats.ts";

await withDemoDatabase(4, async ({ handle, server }) => {
  const start = Date.now() - 20 * 3_600_000;
  for (let b = 0; b < 40; b++) await ingestFaultEvents(handle, batchOf(b, start, 50), { atomic: "all", actor: systemActor });
  await handle.pool.query("vacuum analyze fault_events");
  const { events } = await prepareBatch(handle, batchOf(40, start, 50));
  const keys = [...new Set(events.map((e) => e.seriesKey))];
  const from = Date.now() - 3 * 86_400_000;
  const iso = new Date(from).toISOString();
  const ms = (c: string) => `date_part('epoch', ${c}) * 1000`;
  const variants: Record<string, () => Promise<number>> = {
    current: async () => (await loadSeries(handle.pool, 1, keys, from)).rows,
    packed3: async () => {
      const { rows } = await handle.pool.query({
        text: `select concat(k.n, ',', f.kind, ',', f.reported_level, ',', ${ms("f.began_at")}, ',', ${ms("f.ended_at")}, ',', f.level, ',', f.rule, ',', ${ms("f.rule_at")}, ',', ${ms("f.release_at")}, ',', f.xm), f.id, nullif(f.episode_id, f.id), f.code
          from unnest($2::text[]) with ordinality as k(key, n) cross join lateral (select fault_events.*, xmin as xm from fault_events where cluster_id = $1 and series_key = k.key and began_at >= $3::timestamptz offset 0) f`,
        values: [1, keys, iso], rowMode: "array" });
      let n = 0;
      for (const r of rows) { const p = (r[0] as string).split(","); n += Number(p[3]) > 0 ? 1 : 0; }
      return n;
    },
    byteaNul: async () => {
      const { rows } = await handle.pool.query({
        text: `select string_agg(convert_to(concat_ws(E'\\x01', k.n, f.kind, f.reported_level, ${ms("f.began_at")}, coalesce((${ms("f.ended_at")})::text, ''), f.level, f.rule, coalesce((${ms("f.rule_at")})::text,''), coalesce((${ms("f.release_at")})::text,''), f.xm, f.id, f.episode_id, coalesce(f.code, '')), 'UTF8'), '\\x00'::bytea) as b
          from unnest($2::text[]) with ordinality as k(key, n) cross join lateral (select fault_events.*, xmin as xm from fault_events where cluster_id = $1 and series_key = k.key and began_at >= $3::timestamptz offset 0) f`,
        values: [1, keys, iso], rowMode: "array" });
      const text = (rows[0]![0] as Buffer).toString("utf8");
      const parts = text.split("\u0000");
      let n = 0;
      for (const p of parts) { const f = p.split("\u0001"); n += Number(f[3]) > 0 ? 1 : 0; }
      return n;
    },
    jsonText: async () => {
      const { rows } = await handle.pool.query({
        text: `select '[' || string_agg(concat('[', k.n, ',', to_json(f.id)::text, ',"', f.kind, '",', coalesce(to_json(f.code)::text, 'null'), ',"', f.reported_level, '",', ${ms("f.began_at")}, ',', coalesce((${ms("f.ended_at")})::text, 'null'), ',"', f.level, '","', f.rule, '",', coalesce((${ms("f.rule_at")})::text,'null'), ',', coalesce((${ms("f.release_at")})::text,'null'), ',', case when f.episode_id = f.id then '0' else to_json(f.episode_id)::text end, ',"', f.xm, '"]'), ',') || ']' as b
          from unnest($2::text[]) with ordinality as k(key, n) cross join lateral (select fault_events.*, xmin as xm from fault_events where cluster_id = $1 and series_key = k.key and began_at >= $3::timestamptz offset 0) f`,
        values: [1, keys, iso], rowMode: "array" });
      const parts = JSON.parse(rows[0]![0] as string) as unknown[][];
      let n = 0;
      for (const p of parts) { n += (p[5] as number) > 0 ? 1 : 0; }
      return n;
    },
    textAgg: async () => {
      const { rows } = await handle.pool.query({
        text: `select string_agg(concat_ws(',', k.n, f.kind, f.reported_level, ${ms("f.began_at")}, coalesce((${ms("f.ended_at")})::text, ''), f.level, f.rule, coalesce((${ms("f.rule_at")})::text,''), coalesce((${ms("f.release_at")})::text,''), f.xm, f.id, f.episode_id, coalesce(f.code, '')), E'\\n') as b
          from unnest($2::text[]) with ordinality as k(key, n) cross join lateral (select fault_events.*, xmin as xm from fault_events where cluster_id = $1 and series_key = k.key and began_at >= $3::timestamptz offset 0) f`,
        values: [1, keys, iso], rowMode: "array" });
      const parts = (rows[0]![0] as string).split("\n");
      let n = 0;
      for (const p of parts) { const f = p.split(","); n += Number(f[3]) > 0 ? 1 : 0; }
      return n;
    },
  };
  for (let round = 0; round < 2; round++) for (const [name, run] of Object.entries(variants)) {
    const p0 = await postgresCpuMs(server.dataDir);
    const c0 = process.cpuUsage(); const t0 = performance.now(); let rows = 0;
    for (let i = 0; i < 8; i++) rows = await run();
    const c = process.cpuUsage(c0);
    const pg = (await postgresCpuMs(server.dataDir)) - p0;
    console.log(`   pg cpu ${(pg / 8).toFixed(1)} ms per call`);
    console.log(`${name.padEnd(10)} rows ${rows}: wall ${((performance.now() - t0) / 8).toFixed(1)} ms, node cpu ${((c.user + c.system) / 8000).toFixed(1)} ms per call`);
  }
});
process.exit(0);
