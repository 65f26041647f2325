// Throwaway instrumentation: ingest dense batches directly and time each statement kind (wall, this process).
import pg from "pg";
import { withDemoDatabase } from "./scripts/bench/demo-database.ts";
import { batchOf } from "./scripts/bench/fault-ingest.ts";
import { ingestFaultEvents } from "./db/queries/faults/index.ts";
import { systemActor } from "./db/queries/audit.ts";

const stats = new Map<string, { n: number; ms: number; rows: number }>();
const orig = pg.Client.prototype.query as any;
(pg.Client.prototype as any).query = function (this: any, ...args: any[]) {
  const text: string = typeof args[0] === "string" ? args[0] : args[0]?.text ?? "?";
  const key = text.replace(/\s+/g, " ").slice(0, 70);
  if (!(globalThis as any).noCapture) ((globalThis as any).captured ??= new Map()).set(key.slice(0, 30), args);
  const started = performance.now();
  const result = orig.apply(this, args);
  if (result && typeof result.then === "function") {
    return result.then((r: any) => {
      const s = stats.get(key) ?? { n: 0, ms: 0, rows: 0 };
      s.n++; s.ms += performance.now() - started; s.rows += r?.rowCount ?? r?.rows?.length ?? 0;
      stats.set(key, s);
      return r;
    });
  }
  return result;
};
const spacing = Number(process.env.SPACING ?? 50);
const batches = Number(process.env.BATCHES ?? 60);
await withDemoDatabase(4, async ({ handle }) => {
  const start = Date.now() - 20 * 3_600_000;
  const cpu0 = process.cpuUsage();
  let t0 = performance.now();
  for (let b = 0; b < batches; b++) {
    if (b === 10) { stats.clear(); t0 = performance.now(); }
    const phase: Record<string, number> = {};
    await ingestFaultEvents(handle, batchOf(b, start, spacing), { atomic: "all", actor: systemActor });
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(`batches 10..${batches}: ${(wall / (batches - 10)).toFixed(1)} ms wall per batch; node cpu total ${((cpu.user + cpu.system) / 1000 / batches).toFixed(1)} ms per batch`);
  (globalThis as any).noCapture = true;
  const client = await handle.pool.connect();
  for (const prefix of ["select f.* from unnest($2::tex", "with inserted as ( insert into"]) {
    const args = (globalThis as any).captured.get(prefix);
    const q = typeof args[0] === "string" ? { text: args[0], values: args[1] } : { text: args[0].text, values: args[0].values };
    await client.query("begin");
    const { rows } = await client.query({ text: "explain (analyze, buffers) " + q.text, values: q.values });
    await client.query("rollback");
    console.log(rows.map((r: any) => r["QUERY PLAN"]).join("\n"));
  }
  client.release();
  for (const [k, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14)) console.log(`${(s.ms / (batches - 10)).toFixed(1).padStart(7)} ms/batch  n=${s.n} rows/call=${(s.rows / s.n).toFixed(0)}  ${k}`);
});
process.exit(0);
